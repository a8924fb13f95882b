# expect: fail save_parameters writes {"model": state_dict} (a training checkpoint) instead of the state_dict itself
# hint: state_?dict|nest|wrap|top.?level|\[.?model.?\]|"model"|unexpected key|extra (key|level)|not a tensor
# Wrong: the file must hold the model's state_dict; this one holds a dict whose only entry is
# the state_dict. load_parameters unwraps either form, so the round trip and a plain
# checkpoint both load: only the saved file itself shows the mistake.
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save({"model": net.state_dict()}, path)  # room for the optimizer and epoch later


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    checkpoint = torch.load(path, map_location=device, weights_only=True)
    state = checkpoint.get("model", checkpoint)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
