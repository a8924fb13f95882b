# expect: fail save_parameters does not overwrite an existing file: a second save to the same path keeps the old parameters
# hint: exist|overwrit|second (call|save)|again|stale|old (file|parameters|values)|not saved|unchanged
# Wrong: the first save works; saving again after a change (halving once more) leaves the file
# with the earlier state_dict, so loading returns stale parameters.
import os

import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    if os.path.exists(path):  # never clobber a checkpoint
        return
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
