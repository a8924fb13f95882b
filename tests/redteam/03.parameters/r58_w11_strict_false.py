# expect: fail loads with strict=False, so a file that lacks one of the model's parameters loads silently instead of raising
# hint: strict|missing|key|raise|lack|incomplete
import torch


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
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state, strict=False)  # tolerate extra entries in the file
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
