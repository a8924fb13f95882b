# expect: fail returns the result of load_state_dict (the missing/unexpected keys) instead of the model
# hint: return|model|module|nn\.Module|type|IncompatibleKeys
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    return net.load_state_dict(torch.load(path, map_location=device, weights_only=True))


answer = (halve_first_layer, save_parameters, load_parameters)
