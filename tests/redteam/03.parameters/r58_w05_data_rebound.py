# expect: fail assigns a new tensor to weight.data instead of multiplying in place: same Parameter object, but new storage (not in place)
# hint: in.place|storage|data_ptr|new tensor|memory|\.data|copy
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    weight = net[0].weight
    weight.data = weight.data * 0.5  # .data: autograd does not see it


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
