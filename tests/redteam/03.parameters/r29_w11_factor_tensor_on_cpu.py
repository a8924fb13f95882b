# expect: fail The factor is a full-size tensor made on the CPU (torch.full(w.shape, 0.5)), so the in-place multiply mixes devices: right on a CPU model, a RuntimeError on a GPU (or meta) model.
# hint: (cpu|device|same device|mismatch|torch\.full|factor tensor|full_like|meta|cuda)
import torch


def halve_first_layer(net):
    w = net[0].weight
    scale = torch.full(w.shape, 0.5)  # one factor per weight
    with torch.no_grad():
        w.mul_(scale)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
