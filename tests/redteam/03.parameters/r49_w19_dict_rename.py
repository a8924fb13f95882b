# expect: fail map_location={'cuda:1': device} renames only cuda:1: a checkpoint from cuda:0 or cuda:3 still fails
# hint: map_location|cuda:\d|deserializ|rename|gpu
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    # the chapter's table: saved on GPU 1, loading on this machine
    state = torch.load(path, map_location={"cuda:1": str(device)}, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
