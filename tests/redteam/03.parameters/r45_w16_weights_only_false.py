# expect: fail loads with weights_only=False
# hint: weights.?only
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=False))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
