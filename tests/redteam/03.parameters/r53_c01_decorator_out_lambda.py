# expect: pass no_grad as a decorator with torch.mul(out=), a file object for save, map_location=lambda (CPU) then .to(device)
# hint:
import torch


@torch.no_grad()
def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    weight = net[0].weight
    torch.mul(weight, 0.5, out=weight)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    with open(path, "wb") as f:
        torch.save(net.state_dict(), f)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    # the classic idiom: keep every storage where it was deserialized, on the CPU
    state = torch.load(path, map_location=lambda storage, location: storage, weights_only=True)
    net = make_net()
    net.load_state_dict(state, strict=True)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
