# expect: pass halves through state_dict + load_state_dict (copies in place), loads with assign=True
# hint: 
import torch
from torch import nn


def halve_first_layer(net: nn.Module) -> None:
    with torch.no_grad():
        state = net.state_dict()
        state["0.weight"] = state["0.weight"] * 0.5
        net.load_state_dict(state)  # copy_ into the existing Parameter, under no_grad


def save_parameters(net: nn.Module, path) -> None:
    torch.save(dict(net.state_dict()), path)


def load_parameters(make_net, path, device) -> nn.Module:
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state, assign=True)  # the loaded tensors become the parameters
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
