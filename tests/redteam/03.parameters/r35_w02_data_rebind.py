# expect: fail Rebinds net[0].weight.data to a new halved tensor: the Parameter object survives, but its memory is replaced rather than changed in place (new storage), which the prompt's in place rules out.
# hint: in place|storage|data_ptr|\.data|same (memory|tensor)
import torch
from torch import nn  # noqa: F401


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    w = net[0].weight
    w.data = w.data * 0.5  # .data: autograd does not see it


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
