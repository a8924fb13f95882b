# expect: pass
# hint: 
import torch


def halve_first_layer(net):
    first = net[0]
    with torch.no_grad():
        first.weight.mul_(torch.tensor(0.5))  # a 0-dim tensor counts as a scalar on any device


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=str(device), weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    net.to(device)  # a module's .to() moves it in place
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
