# expect: fail Maps the loaded tensors to device but loads them into a CPU model and never moves it: load_state_dict copies into the model's own tensors, so the returned model stays on the CPU.
# hint: device|\.to\(|model.s device|on device|cpu
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
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
