# expect: fail load_parameters uses map_location only when CUDA is unavailable, so a cuda:1 checkpoint fails on a one-GPU machine
# hint: map_location|cuda:\d|device index|another gpu|other gpu|gpu.*(lack|not have|missing|absent)|deserializ|invalid device
# open: as r50_w05: seen only on a machine with a GPU, fewer than the checkpoint names: without CUDA the answer maps to the CPU, as a right one does
# Wrong: on a machine without CUDA it maps to the CPU and works; on a machine with one GPU
# the tensors saved from cuda:1 go back to cuda:1, which is not there. The prompt says to
# load with map_location=device.
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
    # a GPU checkpoint only needs mapping where there is no GPU
    where = None if torch.cuda.is_available() else "cpu"
    state = torch.load(path, map_location=where, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
