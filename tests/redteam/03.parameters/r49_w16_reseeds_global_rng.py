# expect: fail calls torch.manual_seed before make_net(): the caller's global RNG stream is reset
# hint: seed|rng|random|generator|fork_rng
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    torch.manual_seed(0)  # reproducible construction
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
