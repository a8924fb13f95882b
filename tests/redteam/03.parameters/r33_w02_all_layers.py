# expect: fail halves every parameter of the net, not only the weight of net[0]
# hint: first|net\[0\]|only|layer|other|bias|net\[2\]
import torch


def halve_first_layer(net):
    with torch.no_grad():
        for p in net.parameters():
            p.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
