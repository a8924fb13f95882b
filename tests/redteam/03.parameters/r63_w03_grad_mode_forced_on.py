# expect: fail halve_first_layer turns grad mode back ON at the end instead of restoring the caller's mode
# hint: grad.?mode|set_grad_enabled|is_grad_enabled|grad.*(enabled|restor|put back|left|changed)|process.?wide|setting
# Wrong: set_grad_enabled(False) ... set_grad_enabled(True) is not "put back": a caller that
# runs it under torch.no_grad()/set_grad_enabled(False) gets autograd switched on afterwards.
# Right whenever grad mode was on before the call, so only a check made with it off sees it.
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    torch.set_grad_enabled(False)
    net[0].weight.mul_(0.5)
    torch.set_grad_enabled(True)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
