# expect: fail moves the caller's model to the CPU before saving (and fails on meta)
# hint: device|moved|\bcpu\b|caller|side.?effect
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    # a portable checkpoint: everything on the CPU
    net.cpu()
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
