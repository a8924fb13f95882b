# expect: fail pickle.dump of the state_dict: not a torch.save file, a weights_only load refuses it
# hint: torch\.save|pickl|weights.?only
import pickle

import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    with open(path, "wb") as f:
        pickle.dump(net.state_dict(), f)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
