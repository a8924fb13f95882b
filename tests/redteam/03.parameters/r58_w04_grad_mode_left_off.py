# expect: fail turns autograd off process-wide with torch.set_grad_enabled(False) and never turns it back on
# hint: grad.?mode|grad_enabled|set_grad_enabled|autograd|no_grad|process|restore|left|put back
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    torch.set_grad_enabled(False)
    net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
