# expect: pass functools.partial for a generic scaler, dict comprehension of detached tensors, map_location="cpu" then .to(device)
# hint: 
import functools

import torch


def scale_layer_weight(net, index, factor):
    with torch.no_grad():
        net[index].weight.mul_(factor)


halve_first_layer = functools.partial(scale_layer_weight, index=0, factor=0.5)


def save_parameters(net, path):
    # plain tensors only, keyed by name
    torch.save({name: t.detach() for name, t in net.state_dict().items()}, path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location="cpu", weights_only=True)  # loads anywhere
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
