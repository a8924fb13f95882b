# expect: fail torch.set_default_device(device) is called to build the model on device and never put back
# hint: default.?device|set_default_device|get_default_device|put back|restor|process.?wide|factory
# Wrong: the model is right, but every later torch.zeros/randn in the caller's process lands
# on device (the exercise says to put back any process-wide setting you change).
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
    torch.set_default_device(device)  # build the parameters directly on device: no copy
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
