# expect: fail load_parameters maps the tensors to device but never moves the model, so it is returned on the CPU
# hint: model.*(cpu|device)|(cpu|device).*model|\.to\(|not moved|never moved|device wins|on the cpu|wrong device
# Wrong: load_state_dict copies values into the model's existing tensors, so the model's
# device wins: the parameters stay on the CPU, wherever map_location put the loaded ones.
# Right only when device is the CPU.
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(path, map_location=device, weights_only=True)  # tensors onto device
    net = make_net()
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
