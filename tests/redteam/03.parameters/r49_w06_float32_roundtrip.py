# expect: fail computes the half in float32: float64 weights come back rounded to float32 precision
# hint: dtype|float64|double|precision|float32
import torch
from torch import nn

def halve_first_layer(net):
    w = net[0].weight
    with torch.no_grad():
        w.copy_(w.float() * 0.5)  # float() so the arithmetic is done in float32

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
