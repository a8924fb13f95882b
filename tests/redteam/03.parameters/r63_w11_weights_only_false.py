# expect: fail load_parameters loads with weights_only=False (through torch.serialization.load under another name)
# hint: weights_only|unpickl|pickle|arbitrary code|untrusted|safe
# Wrong: the prompt says load with weights_only=True; weights_only=False unpickles whatever
# the file holds, which can run code. The values, devices and strictness are all right.
import torch
from torch.serialization import load as read_checkpoint


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = read_checkpoint(path, map_location=device, weights_only=False)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
