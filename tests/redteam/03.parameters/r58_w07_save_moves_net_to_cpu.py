# expect: fail saves net.cpu().state_dict(), which moves the caller's model to the CPU as a side effect
# hint: device|moved|\bcpu\b|side.effect|caller|left|\.cpu\(\)|in place
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.cpu().state_dict(), path)  # a CPU file loads anywhere


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
