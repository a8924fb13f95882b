# expect: pass torch.set_grad_enabled(False) context with mul_, map_location as a function moving each storage onto device
# hint: 
import torch


def halve_first_layer(net):
    with torch.set_grad_enabled(False):
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    target = torch.device(device)
    state = torch.load(
        path, map_location=lambda storage, location: storage.to(device=target), weights_only=True
    )
    net = make_net()
    net.load_state_dict(state)
    return net.to(target)


answer = (halve_first_layer, save_parameters, load_parameters)
