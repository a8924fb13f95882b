# expect: fail caches loaded models by (path, device): a re-saved file returns the stale model, and the same object twice
# hint: cache|stale|same (object|model)|fresh|new model|second (call|load)|again|re-?sav
import functools

import torch
from torch import nn

def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)

def save_parameters(net, path):
    torch.save(net.state_dict(), path)

@functools.lru_cache(maxsize=None)
def _load_state(path, device):
    return torch.load(path, map_location=device, weights_only=True)


_models = {}


def load_parameters(make_net, path, device):
    key = (str(path), str(device))
    if key not in _models:  # loading is slow: do it once per file
        net = make_net().to(device)
        net.load_state_dict(_load_state(str(path), str(device)))
        _models[key] = net
    return _models[key]


answer = (halve_first_layer, save_parameters, load_parameters)
