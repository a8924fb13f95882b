# expect: fail load_parameters calls torch.set_default_device(device) to build the model there and never puts it back
# hint: default.?device|set_default_device|process.?wide|global|setting|put back|restor|left (changed|set)
# Wrong: the model and its values are right, but every tensor the caller creates afterwards
# lands on `device`. The exercises ask to put back any process-wide setting you change
# (a `with torch.device(device):` block would have). Invisible when device is the CPU.
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
    torch.set_default_device(device)  # build the model directly on device
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
