# expect: fail halves a deep copy of the model and returns it: the caller's net is unchanged
# hint: in.place|same|unchanged|copy|not.*(halv|chang)
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
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
