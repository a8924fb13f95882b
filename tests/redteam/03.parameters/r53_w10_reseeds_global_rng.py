# expect: fail calls torch.manual_seed(0) before make_net(), reseeding the caller's global RNG
# hint: seed|rng|random|generator
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    torch.manual_seed(0)  # a reproducible starting point before the weights are overwritten
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
