# expect: fail saves a plain list of parameter tensors, not the state_dict, and loads it back by position
# hint: state_dict|keys|dict|name
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save([p.detach() for p in net.parameters()], path)


def load_parameters(make_net, path, device):
    tensors = torch.load(path, map_location=device, weights_only=True)
    net = make_net().to(device)
    with torch.no_grad():
        for p, t in zip(net.parameters(), tensors):
            p.copy_(t)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
