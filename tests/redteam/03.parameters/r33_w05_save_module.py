# expect: fail saves the whole pickled module with torch.save(net) instead of its state_dict (loads with weights_only=False)
# hint: state_dict|module|pickl|tensors only
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net, path)


def load_parameters(make_net, path, device):
    saved = torch.load(path, map_location=device, weights_only=False)
    net = make_net()
    net.load_state_dict(saved.state_dict())
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
