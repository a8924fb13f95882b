# expect: fail does not overwrite a file already at path, so a second save leaves the old checkpoint there
# hint: exist|overwrit|already|stale|old (checkpoint|file|values|parameters)|previous
import os

import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    # never clobber a checkpoint that is already there
    if os.path.exists(path):
        return
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net()
    net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
