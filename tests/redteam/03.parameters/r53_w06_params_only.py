# expect: fail saves named_parameters() instead of state_dict(): buffers (BatchNorm statistics) are lost
# hint: buffer|state_dict|running
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    # the trainable tensors, by name, detached: all a model needs (or so it seems)
    torch.save({name: p.detach() for name, p in net.named_parameters()}, path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
