# expect: pass halves through weight.detach().mul_ (same storage, unrecorded, same Parameter), map_location as a callable that keeps storages on the CPU, then .to(device)
# hint:
import torch


def halve_first_layer(net):
    net[0].weight.detach().mul_(0.5)


def save_parameters(net, path):
    torch.save(dict(net.state_dict()), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=lambda storage, loc: storage, weights_only=True)
    net = make_net()
    missing, unexpected = net.load_state_dict(state)
    assert not missing and not unexpected
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
