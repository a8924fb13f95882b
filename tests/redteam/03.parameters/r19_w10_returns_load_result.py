# expect: fail returns what load_state_dict returns (the missing/unexpected keys report), not the model
# hint: return|_IncompatibleKeys|incompatible|not (a|the) (module|model|net)|nn\.Module|load_state_dict\(\) returns
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=device, weights_only=True)
    return make_net().to(device).load_state_dict(state)


answer = (halve_first_layer, save_parameters, load_parameters)
