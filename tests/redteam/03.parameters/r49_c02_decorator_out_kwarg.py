# expect: pass @torch.no_grad() decorator with torch.mul(out=), builds the net under a torch.device context
# hint: 
import torch
from torch import nn

@torch.no_grad()
def halve_first_layer(net):
    weight = net[0].weight
    torch.mul(weight, 0.5, out=weight)

def save_parameters(net, path):
    state = net.state_dict()
    torch.save(state, str(path))

def load_parameters(make_net, path, device):
    device = torch.device(device)
    with torch.device(device):  # a context, undone on exit: the model is built on device
        net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
