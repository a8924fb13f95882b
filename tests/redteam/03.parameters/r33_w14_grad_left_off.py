# expect: fail turns autograd off process-wide with torch.set_grad_enabled(False) and never turns it back on
# hint: grad|autograd|set_grad_enabled|put back|restore|changed|no_grad
import torch


def halve_first_layer(net):
    torch.set_grad_enabled(False)
    net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
