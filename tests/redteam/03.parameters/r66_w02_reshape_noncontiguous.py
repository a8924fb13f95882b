# expect: fail halves through w.reshape(-1): on a non-contiguous weight reshape copies, and the Parameter is left unhalved
# hint: contig|stride|reshape|flatten|\bview\b|unchanged|not (halved|changed)|transpos
# Wrong: reshape is a view only for contiguous tensors; for a weight stored transposed the
# in-place mul_ lands on a temporary copy and net[0].weight keeps its old values.
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.reshape(-1).mul_(0.5)  # one flat vector of all the weights


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
