# expect: fail loads with weights_only=False (unpickles arbitrary code) instead of weights_only=True
# hint: weights_only|pickl|arbitrary code|unsafe|trust
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    # weights_only=False: accepts whatever torch.save wrote
    state = torch.load(path, map_location=device, weights_only=False)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
