# expect: pass functools.partial-built functions; halving by ldexp_ (exact multiply by 2**-1) under no_grad; torch.load itself a partial with weights_only=True
# hint:
import functools

import torch

_safe_load = functools.partial(torch.load, weights_only=True)


def _scale_layer(net, index, exponent):
    with torch.no_grad():
        weight = net[index].weight
        weight.ldexp_(torch.tensor(exponent, device=weight.device))  # weight * 2**exponent


def _save(net, path, *, protocol):
    torch.save(net.state_dict(), path, pickle_protocol=protocol)


def _load(make_net, path, device, *, staging):
    net = make_net()
    net.load_state_dict(_safe_load(path, map_location=staging))
    return net.to(device)


halve_first_layer = functools.partial(_scale_layer, index=0, exponent=-1)
save_parameters = functools.partial(_save, protocol=2)
load_parameters = functools.partial(_load, staging="cpu")

answer = (halve_first_layer, save_parameters, load_parameters)
