# expect: pass functools.partial over a general scale-a-layer helper; loads onto the CPU with map_location="cpu", then moves the model to device
# hint:
import functools

import torch


def scale_weight(net, index, factor):
    """Multiply net[index].weight by factor, in place, unrecorded by autograd."""
    with torch.no_grad():
        net[index].weight.mul_(factor)


halve_first_layer = functools.partial(scale_weight, index=0, factor=0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location="cpu", weights_only=True)  # loads on any machine
    net = make_net()
    net.load_state_dict(state, strict=True)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
