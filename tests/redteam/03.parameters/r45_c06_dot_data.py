# expect: pass halves through .data.mul_ (same memory, unrecorded: judged right, as r3_c01 and the other .data answers)
# hint: 
import torch


def halve_first_layer(net):
    net[0].weight.data.mul_(0.5)  # .data: autograd does not see it


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
