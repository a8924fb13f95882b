# expect: fail halve_first_layer halves net[0].bias as well as net[0].weight
# hint: bias|only the weight|weight only|other param|every param|all param
# Wrong: the prompt asks for the weight of net[0] only; looping over net[0].parameters()
# also halves its bias (in place and unrecorded, so identity and autograd checks still pass).
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        for p in net[0].parameters():  # the first layer's parameters... all of them
            p.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
