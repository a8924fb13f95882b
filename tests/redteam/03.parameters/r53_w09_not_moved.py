# expect: fail loads the tensors onto device but load_state_dict copies them into the CPU model, which is returned on the CPU
# hint: device|cpu|\.to\(
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net()
    # map_location puts the tensors on device, so the model gets them there (it does not)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
