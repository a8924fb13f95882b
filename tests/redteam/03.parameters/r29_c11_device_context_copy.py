# expect: pass
# hint: 
import os

import torch


@torch.no_grad()
def halve_first_layer(net):
    w = net[0].weight
    w.copy_(w * 0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), os.fspath(path))


def load_parameters(make_net, path, device):
    device = torch.device(device)
    state = torch.load(os.fspath(path), map_location=device, weights_only=True)
    with device:  # make_net() builds its parameters on device
        net = make_net()
    result = net.load_state_dict(state, strict=True)
    assert not result.missing_keys and not result.unexpected_keys
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
