# expect: pass
# hint:
# Right: w.detach() shares w's memory, so mul_ on it halves the Parameter in place with
# nothing recorded; the model is built on device inside a `with torch.device(device)` block
# (restored on exit) and filled from tensors loaded straight onto device.
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
    with torch.device(device):  # factory calls inside make_net() allocate on device
        net = make_net()
    result = net.load_state_dict(state, strict=True)
    assert not result.missing_keys and not result.unexpected_keys
    return net.to(device)  # a no-op here; kept for modules that ignore the default device


answer = (halve_first_layer, save_parameters, load_parameters)
