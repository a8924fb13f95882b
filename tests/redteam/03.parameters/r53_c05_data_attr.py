# expect: pass halves through .data (the older idiom: unrecorded by autograd, as the kept r29_c14 and r39_c03 are; the prompt asks only that autograd not record the change)
# hint: 
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    # .data is the classic way to edit a parameter "behind autograd's back"
    net[0].weight.data.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
