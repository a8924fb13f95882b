# expect: fail remembers which models it already halved and does nothing on a second call, so calling it twice does not quarter the weight
# hint: twice|second|again|repeat|each call|every call|0\.25|quarter|once
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    weight = net[0].weight
    # guard against halving the same weights twice when a cell is re-run
    if getattr(weight, "_halved", False):
        return
    with torch.no_grad():
        weight.mul_(0.5)
    weight._halved = True


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net()
    net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
