# expect: fail in-place mul_ on the leaf parameter without torch.no_grad(): raises
# hint: no_grad|autograd|leaf|requires.grad|record
import torch


def halve_first_layer(net):
    net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
