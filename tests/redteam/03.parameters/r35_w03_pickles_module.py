# expect: fail Saves the whole module with torch.save(net) and loads it with weights_only=False, the pickle the prompt forbids (loading it can run code).
# hint: state_dict|module|pickle|weights_only
import torch
from torch import nn  # noqa: F401


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net, path)  # everything in one file


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    saved = torch.load(path, map_location=device, weights_only=False)
    net = make_net()
    net.load_state_dict(saved.state_dict())
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
