# expect: pass halves through the state_dict's detached view (shares storage and version), saves via an open file, loads on CPU then moves
# hint: 
import torch
from torch import nn

def halve_first_layer(net):
    # state_dict() tensors are detached views of the parameters: same storage,
    # same version counter, so an in-place change reaches net[0].weight itself
    with torch.no_grad():
        net.state_dict()["0.weight"].mul_(0.5)

def save_parameters(net, path):
    with open(path, "wb") as f:
        torch.save(net.state_dict(), f)

def load_parameters(make_net, path, device):
    state = torch.load(path, map_location="cpu", weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
