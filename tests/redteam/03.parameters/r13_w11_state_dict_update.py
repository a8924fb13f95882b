# expect: fail "loads" with net.state_dict().update(state), which changes a copy: the model keeps its fresh weights
# hint: load_state_dict|not (loaded|filled)|fresh|initial|random|saved (values|parameters)|update|differ|not equal
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    state = torch.load(path, map_location=device, weights_only=True)
    net.state_dict().update(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
