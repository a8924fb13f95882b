# expect: fail switches requires_grad off and back on: a frozen first layer comes back trainable
# hint: requires_grad|frozen|trainab
import torch
from torch import nn

def halve_first_layer(net):
    # instead of no_grad: switch tracking off for this one tensor, then back on
    w = net[0].weight
    w.requires_grad_(False)
    w.mul_(0.5)
    w.requires_grad_(True)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
