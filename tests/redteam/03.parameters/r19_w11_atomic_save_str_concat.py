# expect: fail atomic save builds the temporary name with path + ".tmp", which raises TypeError for a pathlib.Path
# hint: path|pathlib|str|string|TypeError|\+|concaten
import os

import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    tmp = path + ".tmp"  # write, then rename: never a half-written checkpoint
    torch.save(net.state_dict(), tmp)
    os.replace(tmp, path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
