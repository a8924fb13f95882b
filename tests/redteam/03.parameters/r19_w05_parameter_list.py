# expect: fail saves list(net.parameters()) (no names, no buffers) instead of the state_dict, and loads by position
# hint: state_dict|list|dict|keys|names|buffers|position|order
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save([p.detach() for p in net.parameters()], path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    saved = torch.load(path, map_location=device, weights_only=True)
    with torch.no_grad():
        for param, value in zip(net.parameters(), saved):
            param.copy_(value)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
