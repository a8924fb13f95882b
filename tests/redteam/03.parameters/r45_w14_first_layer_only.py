# expect: fail saves only net[0]'s state_dict
# hint: state.?dict|key|missing|whole model|only
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net[0].state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net[0].load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
