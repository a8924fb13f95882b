# expect: fail save_parameters pickles the whole module (torch.save(net), under another name) instead of its state_dict
# hint: whole (model|module)|pickl|state_?dict|module|weights_only|unsupported global|tensors only
# Wrong: the prompt says save the state_dict (tensors only, not the module); `store` is
# torch.save under another name, and it is handed the module itself.
import torch
from torch import save as store


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    store(net, path)  # everything about the model, in one file


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
