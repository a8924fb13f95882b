# expect: fail returns the loaded state_dict instead of the model
# hint: return|Module|dict
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return state


answer = (halve_first_layer, save_parameters, load_parameters)
