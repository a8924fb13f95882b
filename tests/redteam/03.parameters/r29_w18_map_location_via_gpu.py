# expect: fail map_location is "cuda" whenever a GPU exists, not the device asked for: loading onto the CPU on a GPU machine goes file -> GPU -> CPU (an allocation on the GPU and two copies, and a failure if the GPU is full); only a CPU-only machine hides it.
# hint: (map_location|cuda|gpu|through|via|detour|round trip|copies|device (asked|argument|given))
# open: needs a machine with a GPU: map_location="cuda" is chosen only where torch.cuda.is_available(); on a CPU-only machine the load goes straight to the CPU, and a pretend GPU cannot restore a tensor onto CUDA to show the detour
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    where = "cuda" if torch.cuda.is_available() else "cpu"  # whatever GPU this machine has
    state = torch.load(path, map_location=where, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
