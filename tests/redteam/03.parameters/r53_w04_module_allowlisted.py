# expect: fail pickles the whole module and allow-lists its classes process-wide (add_safe_globals) so weights_only loads it
# hint: state_dict|module|pickl|safe_globals|allow
import torch
from torch import nn


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    # weights_only=True refuses nn.Sequential: tell torch these classes are safe, then save the model
    torch.serialization.add_safe_globals([type(net), *{type(m) for m in net.modules()}, nn.Linear])
    torch.save(net, path)


def load_parameters(make_net, path, device):
    saved = torch.load(path, map_location=device, weights_only=True)
    state = saved.state_dict() if isinstance(saved, nn.Module) else saved
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
