# expect: fail builds the model with torch.set_default_device(device) and leaves that process-wide default changed
# hint: default.?device|set_default_device
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    torch.set_default_device(device)  # build directly on device: no CPU copy first
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
