# expect: pass finds the first layer's weight by name in a loop, div_ under no_grad, maps "cpu" then loads into a model moved first
# hint:
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    first = net[0]
    with torch.no_grad():
        for name, param in first.named_parameters(recurse=False):
            if name == "weight":
                param.div_(2)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    state = net.state_dict()
    names = list(state)
    torch.save({name: state[name] for name in names}, path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(path, map_location="cpu", weights_only=True)
    net = make_net()
    net.to(device)  # in place: the module moves
    expected = set(net.state_dict())
    missing = expected - set(state)
    if missing:
        raise RuntimeError(f"missing key(s) in state_dict: {sorted(missing)}")
    net.load_state_dict(state)  # copies CPU values into the parameters on device
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
