# expect: fail torch.set_grad_enabled(False) called as a plain function switches autograd off for the whole thread and is never restored: the weight is halved correctly, but every later forward pass builds no graph and backward() fails.
# hint: (set_grad_enabled|grad (mode|enabled)|restor|left (off|disabled)|global|is_grad_enabled|autograd (off|disabled))
import torch


def halve_first_layer(net):
    torch.set_grad_enabled(False)  # autograd must not record this
    net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
