# expect: fail map_location={"cuda:0": device} remaps only cuda:0: a checkpoint written on cuda:1 (or any other GPU) still goes back to its GPU
# hint: map_location|cuda:[1-9]|other gpu|another (gpu|device)|device index|gpu (this machine|that) (lacks|does not have)|deserializ
# Wrong: right for checkpoints from cuda:0 or the CPU only; a tensor saved from cuda:1 is
# not renamed and torch.load fails on a machine without that GPU.
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
    # checkpoints are written on the training GPU: rename it to the device we load onto
    state = torch.load(path, map_location={"cuda:0": str(device)}, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
