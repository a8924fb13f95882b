# expect: fail saves the state_dict converted to float16 (to make the file smaller), so the loaded parameters differ from the saved ones
# hint: dtype|float16|half|precision|exact|bit|differ|values|round
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    state = net.state_dict()
    torch.save({name: t.half() for name, t in state.items()}, path)  # half the disk space


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
