# expect: pass
# hint:
# Right: `net[0].weight *= 0.5` under no_grad is an in-place __imul__ that sets the same
# Parameter back on the module; save/load are functools.partial of helpers with the options bound.
import functools

import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight *= 0.5  # in place; the attribute is re-set to the same Parameter


def _save(net, path, *, save=torch.save):
    save(net.state_dict(), path)


def _load(make_net, path, device, *, weights_only, strict):
    net = make_net().to(device)
    state = torch.load(path, map_location=device, weights_only=weights_only)
    net.load_state_dict(state, strict=strict)
    return net


save_parameters = functools.partial(_save)
load_parameters = functools.partial(_load, weights_only=True, strict=True)
answer = (halve_first_layer, save_parameters, load_parameters)
