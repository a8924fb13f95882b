# expect: fail saves float16 copies to halve the file: the loaded parameters are rounded, not the saved values
# hint: dtype|half|float16|precision|round|exact|equal|bit
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    state = net.state_dict()
    # half the disk space; load_state_dict casts back to the model's dtype
    torch.save({k: v.half() if v.is_floating_point() else v for k, v in state.items()}, path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
