# expect: fail turns requires_grad off on net[0].weight to halve it and never turns it back on, so the layer is frozen afterwards
# hint: requires_grad|frozen|freez|no_grad|gradient|trainable
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    weight = net[0].weight
    weight.requires_grad_(False)  # so that autograd does not record the change
    weight.mul_(0.5)


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
