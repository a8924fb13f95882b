# expect: fail load_parameters is cached by (path, device): a second call returns the same module, stale if the file changed
# hint: cach|lru_cache|stale|second (call|load)|same (object|module|model)|fresh|again|reuse
# Wrong: the first call is right; later calls do not read the file again nor build make_net(),
# so a re-saved checkpoint is ignored and two callers share one model.
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
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    return _load(make_net, str(path), str(device))  # loading is slow: do it once per file


answer = (halve_first_layer, save_parameters, load_parameters)
