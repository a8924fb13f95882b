# expect: pass @torch.no_grad() as a decorator with an in-place *=, the state loaded onto the CPU (map_location="cpu") and copied by load_state_dict into a model already moved to device.
# hint:
import torch
from torch import nn  # noqa: F401


@torch.no_grad()
def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    weight = net[0].weight
    weight *= 0.5  # Tensor.__imul__: the same Parameter, same storage


def save_parameters(net, path):
    """Save net's state_dict to path."""
    state = net.state_dict()
    with open(path, "wb") as f:
        torch.save(state, f)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    state = torch.load(path, map_location="cpu", weights_only=True)  # any GPU named in the file
    net.load_state_dict(state)  # copies into the tensors already on device
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
