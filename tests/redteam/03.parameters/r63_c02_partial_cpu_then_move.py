# expect: pass
# hint:
# Right: functools.partial objects; the halving writes into the weight with out= under no_grad;
# the load maps to the CPU (works everywhere), fills a CPU model, then moves it to device.
import functools

import torch


def _scale_weight(net, *, layer, factor):
    weight = net[layer].weight
    with torch.no_grad():
        torch.mul(weight, factor, out=weight)


def _save(net, path, *, pickle_protocol):
    torch.save(net.state_dict(), path, pickle_protocol=pickle_protocol)


def _load(make_net, path, device, *, strict):
    state = torch.load(path, map_location="cpu", weights_only=True)
    net = make_net()
    net.load_state_dict(state, strict=strict)
    return net.to(device)


halve_first_layer = functools.partial(_scale_weight, layer=0, factor=0.5)
save_parameters = functools.partial(_save, pickle_protocol=2)
load_parameters = functools.partial(_load, strict=True)

answer = (halve_first_layer, save_parameters, load_parameters)
