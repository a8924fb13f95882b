# expect: pass copy_ of a halved copy under no_grad; load validates the file (a dict of tensors, the model's keys and shapes) and raises a clear error on a bad one
# hint:
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    weight = net[0].weight
    with torch.no_grad():
        weight.copy_(weight * 0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    state = net.state_dict()
    assert all(isinstance(t, torch.Tensor) for t in state.values())
    torch.save(state, path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(state, dict) or not all(isinstance(t, torch.Tensor) for t in state.values()):
        raise ValueError(f"{path} does not hold a state_dict of tensors")
    net = make_net()
    expected = {name: tuple(t.shape) for name, t in net.state_dict().items()}
    found = {name: tuple(t.shape) for name, t in state.items()}
    if expected != found:
        missing = sorted(expected.keys() - found.keys())
        extra = sorted(found.keys() - expected.keys())
        wrong = sorted(k for k in expected.keys() & found.keys() if expected[k] != found[k])
        raise ValueError(
            f"checkpoint {path} does not match the model: missing {missing}, "
            f"unexpected {extra}, wrong shapes {wrong}"
        )
    net.load_state_dict(state, strict=True)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
