# expect: fail Loads with weights_only=False "for older checkpoints": the values and devices are right, but the load may unpickle arbitrary objects, which the prompt rules out.
# hint: weights_only
import torch
from torch import nn  # noqa: F401


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=False)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
