# expect: fail also drops the caller's accumulated .grad (zero_grad) as a side effect
# hint: \.grad\b|gradient|zero_grad
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)
    net.zero_grad()  # the old gradients were for the old weights

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
