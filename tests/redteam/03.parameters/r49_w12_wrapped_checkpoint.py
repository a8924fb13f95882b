# expect: fail saves {'model': state_dict, 'epoch': 0}, not the state_dict itself (its own loader unwraps it)
# hint: wrap|nest|epoch|keys?\b|not a state_dict|parameter names?|top.level
import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    # the usual resumable checkpoint layout
    torch.save({"model": net.state_dict(), "epoch": 0}, path)

def load_parameters(make_net, path, device):
    net = make_net().to(device)
    checkpoint = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(checkpoint["model"] if "model" in checkpoint else checkpoint)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
