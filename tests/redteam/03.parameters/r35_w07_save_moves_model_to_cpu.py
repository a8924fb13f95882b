# expect: fail Saves net.cpu().state_dict() to get a portable file, but a module's .cpu() moves the caller's model in place, so after saving its parameters are no longer on their device.
# hint: cpu|in place|caller|device|moved|model
import torch
from torch import nn  # noqa: F401


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.cpu().state_dict(), path)  # CPU tensors load anywhere


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
