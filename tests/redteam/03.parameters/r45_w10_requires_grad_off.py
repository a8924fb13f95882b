# expect: fail turns requires_grad off to change the weight and forgets to turn it back on: the layer is frozen
# hint: requires_grad is now False.*frozen
import torch


def halve_first_layer(net):
    w = net[0].weight
    w.requires_grad_(False)  # so autograd does not record the change
    w.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
