# expect: pass Halves with copy_ of the halved values under no_grad (same Parameter and storage), saves a plain dict of detached tensors, and loads with a map_location function that keeps every storage on the CPU before .to(device).
# hint:
import torch
from torch import nn  # noqa: F401


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    w = net[0].weight
    with torch.no_grad():
        w.copy_(w * 0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save({name: t.detach() for name, t in net.state_dict().items()}, str(path))


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(str(path), map_location=lambda storage, location: storage, weights_only=True)
    model = make_net()
    model.load_state_dict(state, strict=True)
    model.to(device)  # a module's .to() moves it in place
    return model


answer = (halve_first_layer, save_parameters, load_parameters)
