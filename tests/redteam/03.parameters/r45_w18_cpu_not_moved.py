# expect: fail map_location='cpu' as in the chapter, and the model is returned on the CPU, not on device
# hint: device|cpu
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
