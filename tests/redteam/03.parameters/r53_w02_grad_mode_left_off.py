# expect: fail turns grad mode off with torch.set_grad_enabled(False) and never turns it back on
# hint: grad.?mode|grad.?enabled|set_grad_enabled|no_grad
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    torch.set_grad_enabled(False)  # same effect as no_grad(), without the indentation
    net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
