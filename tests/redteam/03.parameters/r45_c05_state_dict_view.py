# expect: pass halves through the state_dict's view of the weight under no_grad; loads with a torch.device map
# hint: 
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net.state_dict()["0.weight"].mul_(0.5)  # the same memory as net[0].weight


def save_parameters(net, path):
    torch.save({k: v for k, v in net.state_dict().items()}, path)


def load_parameters(make_net, path, device):
    device = torch.device(device)
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    net = net.to(device)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
