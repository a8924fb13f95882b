# expect: fail halves a deep copy of the net and returns it, leaving the caller's net unchanged
# hint: copy
import copy

import torch


def halve_first_layer(net):
    halved = copy.deepcopy(net)
    with torch.no_grad():
        halved[0].weight.mul_(0.5)
    return halved


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
