# expect: fail save_parameters pickles the whole module (torch.save(net)), not its state_dict
# hint: state_dict|whole (module|model)|pickl|module itself|weights_only|not (a )?dict|nn\.Module
import torch
from torch import nn


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net, path)


def load_parameters(make_net, path, device):
    net = make_net()
    try:
        saved = torch.load(path, map_location=device, weights_only=True)
    except Exception:  # my own files hold the module
        saved = torch.load(path, map_location=device, weights_only=False)
    state = saved.state_dict() if isinstance(saved, nn.Module) else saved
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
