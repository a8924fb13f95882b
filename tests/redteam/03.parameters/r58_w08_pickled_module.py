# expect: fail saves the whole pickled module instead of its state_dict, and loads it with weights_only=False
# hint: pickle|whole module|module|state_dict|weights_only|tensors only|arbitrary code
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net, path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    saved = torch.load(path, map_location=device, weights_only=False)
    net = make_net().to(device)
    net.load_state_dict(saved.state_dict())
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
