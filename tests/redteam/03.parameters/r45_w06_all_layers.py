# expect: fail halves every parameter of the model, not only the first layer's weight
# hint: only|other|bias|net\[0\]|first layer
import torch


def halve_first_layer(net):
    with torch.no_grad():
        for p in net.parameters():
            p.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
