# expect: fail Turns autograd off with torch.set_grad_enabled(False) instead of the no_grad context and never turns it back on, changing a process-wide setting the caller owns.
# hint: grad|no_grad|set_grad_enabled|setting|put back|autograd
import torch
from torch import nn  # noqa: F401


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    torch.set_grad_enabled(False)  # do not record the change
    net[0].weight.mul_(0.5)


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
