# expect: fail turns requires_grad off to avoid autograd and never turns it back on
# hint: requires_grad|no longer (trains|learn)|frozen|no_grad\(\)
def halve_first_layer(net):
    w = net[0].weight
    w.requires_grad_(False)  # so autograd does not record the change
    w.mul_(0.5)


def save_parameters(net, path):
    import torch

    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    import torch

    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
