# expect: fail map_location=device but the model built on the CPU is never moved: load_state_dict copies, model stays on CPU
# hint: device|\bcpu\b|not on|to\(device\)
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    net = make_net()
    # map_location=device puts the tensors on device, so the model is there too
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
