# expect: fail sets torch's default device to build the model there and never restores it
# hint: default.?device|set_default|process|restor
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    torch.set_default_device(device)  # build the model directly on device
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
