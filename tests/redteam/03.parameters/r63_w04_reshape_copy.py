# expect: fail halve_first_layer halves reshape(-1) of the weight, which is a copy when the weight is not contiguous
# hint: contiguous|stride|reshape|flatten|\bview\b|copy of|a copy|not (halved|changed|modified)|unchanged
# Wrong: for nn.Linear's usual contiguous weight reshape(-1) is a view and this works; for a
# non-contiguous weight (e.g. a transposed Parameter) reshape returns a copy, the copy is
# halved and net[0].weight is left unchanged.
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        flat = net[0].weight.reshape(-1)  # every entry, as one vector
        flat.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
