# expect: fail torch.set_grad_enabled(False) is called and never put back: autograd stays off for the caller
# hint: grad.?mode|set_grad_enabled|grad(ient)?s? (is |are )?(enabled|disabled|off)|autograd.*(off|disabled)|is_grad_enabled|put back|restor|process
# Wrong: the halving is right and unrecorded, but the process-wide grad mode is left off, so
# the caller's next forward/backward records nothing (the exercise says to put such settings back).
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    torch.set_grad_enabled(False)  # the same as no_grad, without the indentation
    net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
