# expect: fail halve_first_layer replaces net[0].weight with a new Parameter instead of halving the old one in place
# hint: in.?place|same (parameter|object|tensor)|new (parameter|object|tensor)|replac|identity|optimizer
# Wrong: the values are halved, but net[0].weight is a new Parameter object; an optimizer
# built earlier still holds (and keeps updating) the old, unhalved one.
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
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
