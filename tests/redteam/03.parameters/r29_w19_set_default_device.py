# expect: fail load_parameters calls torch.set_default_device(device) to build the net on device and never resets it: the returned model is right, but every later factory call in the process (torch.zeros, torch.randn, new models) lands on that device.
# hint: (set_default_device|default device|global|reset|restor|leak|later (tensor|call))
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    torch.set_default_device(device)  # build the model directly on device
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
