# expect: fail map_location is a dict that renames only cuda:0, so a checkpoint saved on cuda:1 (or another GPU) still goes to that missing GPU
# hint: map_location|cuda:1|other gpus?|missing gpu|gpu (this machine|it) (does not|lacks)|dict|remap|rename
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location={"cuda:0": str(device)}, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
