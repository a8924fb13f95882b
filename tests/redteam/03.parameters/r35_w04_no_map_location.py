# expect: fail Loads without map_location and moves the model afterwards, so a checkpoint saved on a GPU this machine lacks fails to load.
# hint: map_location|GPU|device|deserializ
import torch
from torch import nn  # noqa: F401


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net()
    net.load_state_dict(torch.load(path, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
