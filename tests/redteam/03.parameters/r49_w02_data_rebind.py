# expect: fail rebinds .data to a new tensor: same Parameter object but new storage, not in place
# hint: in.?place|storage|data_ptr|new tensor|\.data|memory
import torch
from torch import nn

def halve_first_layer(net):
    # the Parameter object stays the same, so the optimizer still holds it
    w = net[0].weight
    w.data = w.data * 0.5

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
