# expect: fail saves the state_dict with pickle.dump, which torch.load(weights_only=True) refuses, so its own file does not load
# hint: pickle|torch\.save|weights_only|unpickl|load(ing)? fail|cannot (be )?load
import pickle

import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    with open(path, "wb") as f:
        pickle.dump(net.state_dict(), f)  # tensors only, no module


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
