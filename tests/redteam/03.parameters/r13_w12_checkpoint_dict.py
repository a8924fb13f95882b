# expect: fail saves a training checkpoint {"model": state_dict, "epoch": ...} and loads ["model"]: not a plain state_dict
# hint: state_dict|keys?|\bmodel\b|epoch|wrapp|nested|KeyError|dict of tensors
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save({"model": net.state_dict(), "epoch": 0}, path)


def load_parameters(make_net, path, device):
    net = make_net()
    checkpoint = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(checkpoint["model"])
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
