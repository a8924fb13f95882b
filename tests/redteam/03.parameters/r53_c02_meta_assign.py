# expect: pass 0-dim CPU scalar tensor for the halving; model built on meta and filled with load_state_dict(assign=True)
# hint:
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(torch.tensor(0.5))  # 0-dim CPU tensor: accepted as a scalar on any device


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(path, map_location=torch.device(device), weights_only=True)
    with torch.device("meta"):  # no memory, no initialization: every value comes from the file
        net = make_net()
    net.load_state_dict(state, assign=True)  # strict by default: a missing key raises
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
