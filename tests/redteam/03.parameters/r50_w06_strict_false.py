# expect: fail loads with strict=False, so a checkpoint that does not match the model (missing or extra keys) is accepted silently and leaves random weights
# hint: strict|missing|unexpected|match|key
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
    state = torch.load(path, map_location="cpu", weights_only=True)
    # strict=False: tolerate checkpoints from slightly different versions of the model
    net.load_state_dict(state, strict=False)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
