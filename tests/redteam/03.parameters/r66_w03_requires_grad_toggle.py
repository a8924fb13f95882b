# expect: fail turns requires_grad off and back on around mul_: a frozen first layer (requires_grad=False) comes back trainable
# hint: requires_grad|frozen|freez|trainable
# Wrong: instead of torch.no_grad(), it flips the Parameter's own flag and sets it to True at
# the end, whatever it was before: the change is visible only on a net whose layer was frozen.
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    w = net[0].weight
    w.requires_grad_(False)  # autograd ignores a tensor that does not require grad
    w.mul_(0.5)
    w.requires_grad_(True)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
