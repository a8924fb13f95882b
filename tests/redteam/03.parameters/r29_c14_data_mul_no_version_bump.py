# expect: pass Halves through .data: the prompt asks only that autograd not record the change; .data records nothing, as torch.no_grad() does (the kept r3_c01 answer does the same).
# hint: 
import torch


def halve_first_layer(net):
    net[0].weight.data.mul_(0.5)  # .data: autograd does not see it


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
