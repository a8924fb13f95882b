# expect: fail saves the whole pickled module, not its state_dict
# hint: state.?dict|module|pickl|whole|weights.only
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net, path)


def load_parameters(make_net, path, device):
    loaded = torch.load(path, map_location=device, weights_only=False)
    net = make_net()
    net.load_state_dict(loaded.state_dict())
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
