# expect: pass loops: finds net[0]'s weight by identity among named_parameters; saves a plain dict built by a loop; loads by checking keys and copying tensor by tensor under no_grad
# hint:
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    target = net[0].weight
    with torch.no_grad():
        for _, parameter in net.named_parameters():
            if parameter is target:
                parameter.mul_(0.5)
                break


def save_parameters(net, path):
    """Save net's state_dict to path."""
    state = {}
    for name, tensor in net.state_dict().items():
        state[name] = tensor
    torch.save(state, path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    saved = torch.load(path, map_location=lambda storage, location: storage, weights_only=True)
    net = make_net()
    own = net.state_dict()
    if set(saved) != set(own):
        raise KeyError(
            f"checkpoint keys {sorted(saved)} do not match the model's {sorted(own)}"
        )
    with torch.no_grad():
        for name, tensor in own.items():
            if saved[name].shape != tensor.shape:
                raise ValueError(f"{name}: checkpoint shape {tuple(saved[name].shape)}, "
                                 f"model shape {tuple(tensor.shape)}")
            tensor.copy_(saved[name])
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
