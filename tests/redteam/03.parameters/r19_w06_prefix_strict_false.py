# expect: fail saves keys with a "net." prefix and loads with strict=False, which silently loads nothing (missing and unexpected keys)
# hint: strict|missing|unexpected|keys?|prefix|nothing (was |is )?loaded|not loaded|random|initial
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(prefix="net."), path)  # namespaced, for a bigger checkpoint later


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state, strict=False)  # tolerate extra entries
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
