# expect: fail uses torch.device(device).type ("cuda") instead of device: a model asked for on cuda:1 comes back on the current GPU (cuda:0)
# hint: cuda:[1-9]|device index|index|another (gpu|device)|wrong (gpu|device)|current (gpu|device)|\.type|on cuda:0
# open: GPU only: a device's index is lost only where the device is cuda:1, which a machine without two GPUs never asks for; as r63_w08
# Wrong: dropping the index is harmless for "cpu" and for a one-GPU machine, but returns the
# model on the wrong GPU when device names another one.
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
    kind = torch.device(device).type  # map_location takes "cpu" or "cuda"
    state = torch.load(path, map_location=kind, weights_only=True)
    net = make_net().to(kind)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
