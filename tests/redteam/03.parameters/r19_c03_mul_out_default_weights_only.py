# expect: pass torch.mul(w, 0.5, out=w) under no_grad; torch.load relies on weights_only=True being the default (torch >= 2.6)
# hint: 
import torch


def halve_first_layer(net):
    weight = net[0].weight
    with torch.no_grad():
        torch.mul(weight, 0.5, out=weight)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device))  # weights_only=True by default
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
