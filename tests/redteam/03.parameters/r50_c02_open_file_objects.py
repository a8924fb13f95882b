# expect: pass torch.no_grad decorator with div_(2); save and load through open file objects; strict load on the CPU, then .to(device)
# hint:
import torch


@torch.no_grad()
def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    net[0].weight.div_(2)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    with open(path, "wb") as out:  # "wb" truncates whatever was there
        torch.save(net.state_dict(), out)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    with open(path, "rb") as source:
        state = torch.load(source, map_location=torch.device("cpu"), weights_only=True)
    net = make_net()
    net.load_state_dict(state, strict=True)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
