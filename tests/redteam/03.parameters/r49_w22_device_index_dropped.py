# expect: fail keeps only the device type: 'cuda:1' becomes 'cuda' (current GPU, cuda:0)
# hint: index|cuda:\d|device|ordinal
# open: a device index dropped (torch.device(device).type) shows only where the checker asks for cuda:1 of two GPUs; the CPU and the meta device have no index, and no machine of the tests has two GPUs
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    kind = torch.device(device).type  # "cuda" or "cpu"
    net = make_net().to(kind)
    net.load_state_dict(torch.load(path, map_location=kind, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
