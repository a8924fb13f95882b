# expect: fail saves a TorchScript archive (the module's code), not a state_dict of tensors
# hint: module|script|jit|tensors only|state_dict|code
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    # portable deployment format
    torch.jit.save(torch.jit.script(net), str(path))

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    try:
        state = torch.load(path, map_location=device, weights_only=True)
    except RuntimeError:
        state = torch.jit.load(str(path), map_location=device).state_dict()
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
