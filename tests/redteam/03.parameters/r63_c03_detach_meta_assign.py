# expect: pass
# hint:
# Right: detach() shares the weight's storage (and version counter), so detach().mul_ halves
# the same Parameter in place with nothing recorded; the model is built on `meta` (no
# random init wasted) and load_state_dict(assign=True) adopts the tensors mapped to device.
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    net[0].weight.detach().mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(path, map_location=device, weights_only=True)
    with torch.device("meta"):
        net = make_net()
    net.load_state_dict(state, strict=True, assign=True)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
