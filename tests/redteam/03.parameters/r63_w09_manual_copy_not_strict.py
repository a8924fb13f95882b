# expect: fail load_parameters copies the saved tensors by hand and silently skips a parameter the file lacks
# hint: strict|missing|lack|absent|key|not in the (file|checkpoint)|raise|silent|load_state_dict
# Wrong: a file without one of the model's parameters must raise (as load_state_dict does
# with strict=True); this loop keeps the fresh random values for it and returns normally.
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
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net().to(device)
    with torch.no_grad():
        for name, tensor in net.state_dict().items():
            if name in state:
                tensor.copy_(state[name])
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
