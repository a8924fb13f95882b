# expect: fail never overwrites an existing file: an existing path keeps its old (stale or empty) content
# hint: overwrit|exist|stale|empty|unchanged|not (saved|written)
import os

import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    if os.path.exists(path):  # never clobber a checkpoint
        return
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
