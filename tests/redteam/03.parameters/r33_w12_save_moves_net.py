# expect: fail save_parameters calls net.cpu() (in place for a module), moving the caller's model off its device as a side effect
# hint: device|mov|cpu|caller|in.?place|side effect|changed|net\.to|still on
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.cpu().state_dict(), path)  # CPU tensors load everywhere


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
