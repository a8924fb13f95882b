# expect: fail divides by 0.5 (doubles the weight) instead of multiplying by 0.5
# hint: 0\.5|half|halve|doubl|value|twice
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.div_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
