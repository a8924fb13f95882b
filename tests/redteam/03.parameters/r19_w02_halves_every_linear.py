# expect: fail halves the weight of every Linear layer, not only net[0]
# hint: net\[0\]|first layer|only|other layers?|every (linear|layer)|all (linear|layers)|net\[2\]|second layer
import torch
from torch import nn


def halve_first_layer(net):
    with torch.no_grad():
        for module in net.modules():
            if isinstance(module, nn.Linear):
                module.weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
