# expect: pass out= multiply under no_grad, save/load through open file objects, model moved to device before load_state_dict
# hint:
import torch


def halve_first_layer(net):
    with torch.no_grad():
        weight = net[0].weight
        torch.mul(weight, 0.5, out=weight)


def save_parameters(net, path):
    with open(path, "wb") as f:
        torch.save(net.state_dict(), f)


def load_parameters(make_net, path, device):
    device = torch.device(device)
    net = make_net().to(device)
    with open(path, "rb") as f:
        state = torch.load(f, map_location=device, weights_only=True)
    net.load_state_dict(state, strict=True)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
