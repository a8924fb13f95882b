# expect: fail multiplies by torch.tensor([0.5]), a 1-dim CPU tensor (not a 0-dim scalar): device mismatch on a GPU
# hint: device|cpu|mismatch|scalar
import torch

HALF = torch.tensor([0.5])  # made once; shape (1,), so it is NOT the 0-dim CPU-scalar exception


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(HALF)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
