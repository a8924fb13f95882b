# expect: fail loads with strict=False: a checkpoint with missing or unexpected keys loads silently
# hint: strict|missing|unexpected|key
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    # strict=False: tolerate small naming differences between versions
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True), strict=False)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
