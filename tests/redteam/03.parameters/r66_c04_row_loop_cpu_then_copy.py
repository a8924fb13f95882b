# expect: pass
# hint:
# Right: halves row by row, each row a view of the Parameter (in place, under no_grad);
# loads the checkpoint onto the CPU and copies it into a model already on device
# (load_state_dict copies into the existing tensors, so the model's device wins).
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        for row in net[0].weight:  # each row is a view into the weight
            row.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    state = net.state_dict()
    torch.save(state, path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    state = torch.load(path, map_location="cpu", weights_only=True)  # loads on any machine
    net.load_state_dict(state)  # copies host tensors into the device's parameters
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
