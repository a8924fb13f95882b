# expect: fail halves a deep copy of the model and returns it, leaving the caller's net (and its optimizer's Parameter) unchanged
# hint: in.place|copy|deepcopy|same (parameter|object|module|net)|caller|return|unchanged|not (halved|changed)
import copy

import torch


def halve_first_layer(net):
    net = copy.deepcopy(net)  # do not surprise the caller
    with torch.no_grad():
        net[0].weight.mul_(0.5)
    return net


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
