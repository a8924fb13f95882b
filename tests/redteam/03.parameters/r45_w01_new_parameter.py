# expect: fail halve replaces net[0].weight with a new Parameter instead of changing it in place
# hint: in.place|same|new|replac|object|identity
import torch
from torch import nn


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight = nn.Parameter(net[0].weight * 0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
