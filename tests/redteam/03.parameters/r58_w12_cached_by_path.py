# expect: fail caches the loaded state_dict by path, so loading a file that was rewritten since returns the old parameters
# hint: cache|stale|reus|same (file|path)|second|again|rewrit|overwrit|old
import functools

import torch


@functools.lru_cache(maxsize=8)
def _read(path, device):
    return torch.load(path, map_location=device, weights_only=True)


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    net.load_state_dict(_read(str(path), str(device)))  # load_state_dict copies: the cache stays intact
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
