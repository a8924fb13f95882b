# expect: fail turns grad mode off process-wide and never restores it
# hint: grad.?mode|grad_enabled|is_grad_enabled|no_grad|autograd.*(off|disabl)|process|restor
import torch
from torch import nn

def halve_first_layer(net):
    torch.set_grad_enabled(False)  # same as no_grad, without the indentation
    net[0].weight.mul_(0.5)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
