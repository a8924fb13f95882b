# expect: fail the model is built inside torch.inference_mode(): its parameters are inference tensors that can never be trained or changed in place outside it
# hint: inference.?mode|inference tensor|cannot (be )?train|saved for backward|in.?place update
# Wrong: values and device are right, but the returned model cannot train (its parameters
# cannot be saved for backward) and halve_first_layer on it raises (chapter 3, section 3.5).
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
    with torch.inference_mode():  # loading needs no autograd, and inference_mode is faster
        net = make_net().to(device)
        net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
