# expect: fail remembers nets already halved and skips them: a second call does nothing (state kept between calls)
# hint: twice|second|again|once|repeat|every call|kept|remember
import torch
from torch import nn

_halved = set()


def halve_first_layer(net):
    # guard against halving the same layer twice by accident
    key = id(net[0].weight)
    if key in _halved:
        return
    _halved.add(key)
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
