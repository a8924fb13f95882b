# expect: fail uses map_location only when this machine has no CUDA at all, so on a GPU machine a checkpoint from a GPU it lacks (cuda:3 on a 1-GPU box) fails to load
# hint: map_location|cuda|gpu|device
# open: seen only on a machine with a GPU, fewer than the checkpoint names: without CUDA the script maps to the CPU, as a right one does (as r49_w22, a GPU case)
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
    # map_location is only needed when there is no GPU to put CUDA tensors back on;
    # with a GPU, loading straight onto it skips a copy through the host
    remap = None if torch.cuda.is_available() else "cpu"
    state = torch.load(path, map_location=remap, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
