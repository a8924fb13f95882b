# expect: fail halves net[0].weight.cpu(), which is a copy when the model is on a GPU, so the model's weight is unchanged there
# hint: device|in.?place|same|copy|cpu|unchanged|not halved
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.cpu().mul_(0.5)  # work on the host copy


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
