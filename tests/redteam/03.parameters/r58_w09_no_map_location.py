# expect: fail loads without map_location, so a checkpoint saved on a GPU this machine lacks cannot be loaded
# hint: map_location|deserializ|cuda|gpu|device|another machine
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
    state = torch.load(path, weights_only=True)
    net.load_state_dict(state)  # copies into the parameters, which are already on device
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
