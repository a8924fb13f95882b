# expect: fail save_parameters rewrites the file name to end in .pth and load_parameters does the same: a round trip through these two works, but the file asked for (e.g. net.pt) is never written, so anything else reading `path` finds nothing or a stale file.
# hint: (suffix|\.pth|extension|file name|filename|path|not (found|written)|other file|wrong file|FileNotFound)
from pathlib import Path

import torch


def _checkpoint(path):
    return Path(path).with_suffix(".pth")  # the PyTorch convention


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), _checkpoint(path))


def load_parameters(make_net, path, device):
    state = torch.load(_checkpoint(path), map_location=device, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
