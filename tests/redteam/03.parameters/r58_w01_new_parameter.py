# expect: fail replaces net[0].weight with a new nn.Parameter instead of changing the existing one in place (an optimizer built earlier keeps the old one)
# hint: same parameter|new parameter|replac|identity|optimizer|in.place|object
import torch
from torch import nn


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight = nn.Parameter(net[0].weight * 0.5)


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
