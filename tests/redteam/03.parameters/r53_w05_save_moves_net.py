# expect: fail save_parameters calls net.cpu(), which moves the caller's model to the CPU in place
# hint: cpu|device|mov|in.place
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    # a portable checkpoint: CPU tensors load anywhere
    torch.save(net.cpu().state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
