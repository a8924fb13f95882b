# expect: fail caches load_parameters (functools.lru_cache): a second call returns the same module, stale after the file changes
# hint: cache|stale|same (module|object|model)|fresh|new (module|model)|between calls|twice
import functools

import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


@functools.lru_cache(maxsize=8)  # loading from disk is slow: do it once per (make_net, path, device)
def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
