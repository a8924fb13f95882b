# expect: fail saves the tensors cast to bfloat16 to halve the file, so the loaded parameters are not the saved values (precision lost, float32 values rounded)
# hint: dtype|precision|bfloat16|float16|half|bit-?identical|exact|round
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    # bfloat16 keeps float32's range, so nothing overflows, and the file is half the size
    state = {name: tensor.detach().to(torch.bfloat16) for name, tensor in net.state_dict().items()}
    torch.save(state, path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net()
    # load_state_dict copies into the float32 parameters, casting back
    net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
