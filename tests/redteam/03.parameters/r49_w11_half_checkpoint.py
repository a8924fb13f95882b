# expect: fail saves the tensors as float16 to halve the file: the loaded values are rounded
# hint: float16|half|dtype|precision|round
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    # half the disk space; floating tensors stored as float16
    state = {k: (v.half() if v.is_floating_point() else v) for k, v in net.state_dict().items()}
    torch.save(state, path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
