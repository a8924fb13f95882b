# expect: pass halves through .data.mul_ (same memory, unrecorded: judged right, as r3_c01, r29_c14 and r45_c06 were)
# hint: 
import torch
from torch import nn

def halve_first_layer(net):
    # .data is "the raw tensor": no autograd, same storage, same Parameter
    net[0].weight.data.mul_(0.5)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
