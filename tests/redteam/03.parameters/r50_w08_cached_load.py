# expect: fail caches load_parameters by (make_net, path, device), so a second call returns the same model object with the old values even after the file was rewritten
# hint: cache|stale|same (object|model)|twice|second|again|new model|fresh|rewrit
import functools

import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


@functools.lru_cache(maxsize=None)
def _load(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return net.to(device)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    # loading the same checkpoint twice is common in notebooks: do the disk read once
    return _load(make_net, str(path), str(device))


answer = (halve_first_layer, save_parameters, load_parameters)
