# expect: fail torch.load without map_location: a checkpoint from a missing GPU fails to load
# hint: map.?location|device|cuda|gpu
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
