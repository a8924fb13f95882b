# expect: fail loads without map_location, then moves the model: fails on a checkpoint from a missing GPU
# hint: map_location|deserializ|is_available|(saved|written) (on|from) (a|another|other) (gpu|machine)|gpu (this|the) machine (does not|doesn't|lacks)|missing gpu|cuda:\d
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)  # copies into the parameters on device
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
