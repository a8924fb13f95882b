# expect: fail caches loaded models by path: a second load of a rewritten file returns the stale, shared model
# hint: cache|stale|fresh|earlier|twice|shared|reus|new model|same (model|object|module)
import torch


_loaded = {}


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    key = (str(path), str(device))
    if key not in _loaded:  # loading is slow: do it once per file
        net = make_net()
        net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
        _loaded[key] = net.to(device)
    return _loaded[key]


answer = (halve_first_layer, save_parameters, load_parameters)
