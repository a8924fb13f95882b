# expect: fail replaces net[0].weight by a new nn.Parameter instead of halving the existing one in place
# hint: in.?place|same|Parameter|object|replace|optimizer
import torch
from torch import nn


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight = nn.Parameter(net[0].weight * 0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
