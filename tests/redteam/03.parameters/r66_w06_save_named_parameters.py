# expect: fail saves dict(named_parameters()) instead of state_dict(): buffers (e.g. BatchNorm running stats) are not saved
# hint: buffer|running_(mean|var)|batch.?norm|named_parameters|state_dict|missing
# Wrong: for the exercise's Linear/ReLU net the two dicts have the same keys, so it looks right;
# a model with buffers cannot be loaded back (strict load raises on the missing buffers).
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    # "the parameters": only the tensors the optimizer trains, detached
    torch.save({name: p.detach() for name, p in net.named_parameters()}, path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
