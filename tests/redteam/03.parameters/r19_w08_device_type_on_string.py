# expect: fail uses device.type, so a device given as a string ("cpu", "cuda:0") raises AttributeError
# hint: str|string|device\.type|AttributeError|torch\.device\(
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    where = "cpu" if device.type == "cpu" else device  # CPU tensors need no index
    net.load_state_dict(torch.load(path, map_location=where, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
