# expect: pass
# hint:
# Right: torch.no_grad() as a decorator, the weight found by a loop over parameters (by identity),
# copy_ of half of it; file objects for save and load; map_location as a torch.device; the
# missing-key check done explicitly before a strict load_state_dict.
import torch


@torch.no_grad()
def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    target = net[0].weight
    for param in net.parameters():
        if param is target:
            param.copy_(param * 0.5)
            return
    raise ValueError("net[0].weight is not one of net's parameters")


def save_parameters(net, path):
    """Save net's state_dict to path."""
    with open(path, "wb") as f:
        torch.save(net.state_dict(), f)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    device = torch.device(device)
    with open(path, "rb") as f:
        state = torch.load(f, map_location=device, weights_only=True)
    net = make_net().to(device)
    missing = set(net.state_dict()) - set(state)
    if missing:
        raise RuntimeError(f"checkpoint lacks {sorted(missing)}")
    result = net.load_state_dict(state)
    assert not result.missing_keys and not result.unexpected_keys
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
