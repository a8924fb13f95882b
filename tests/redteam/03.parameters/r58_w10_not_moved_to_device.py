# expect: fail loads onto the CPU and returns the model there, never moving it to device
# hint: device|\.to\(|moved|\bcpu\b|where|on device
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
    net = make_net()
    state = torch.load(path, map_location="cpu", weights_only=True)  # works everywhere
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
