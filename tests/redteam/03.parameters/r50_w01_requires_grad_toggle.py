# expect: fail halves by switching requires_grad off and back on instead of torch.no_grad(), so a frozen first layer comes back trainable
# hint: requires_grad|frozen|freez|trainable|no_grad
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    weight = net[0].weight
    # autograd refuses an in-place op on a leaf that requires grad, so switch it off for the op
    weight.requires_grad_(False)
    weight.mul_(0.5)
    weight.requires_grad_(True)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net()
    net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
