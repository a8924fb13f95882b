# expect: fail ignores the device argument: picks cuda if available, else the CPU
# hint: device|argument|ignor|cuda
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    target = "cuda" if torch.cuda.is_available() else "cpu"
    net = make_net()
    net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return net.to(target)


answer = (halve_first_layer, save_parameters, load_parameters)
