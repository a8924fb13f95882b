# expect: pass torch.mul(out=) under no_grad; load_state_dict(assign=True) from tensors mapped to device
# hint: 
from pathlib import Path

import torch


def halve_first_layer(net):
    weight = net[0].weight
    with torch.no_grad():
        torch.mul(weight, 0.5, out=weight)


def save_parameters(net, path):
    state = net.state_dict()
    torch.save(state, Path(path))


def load_parameters(make_net, path, device):
    state = torch.load(Path(path), map_location=torch.device(device), weights_only=True)
    net = make_net()
    net.load_state_dict(state, assign=True)  # the fresh model takes the loaded tensors
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
