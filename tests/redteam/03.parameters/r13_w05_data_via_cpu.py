# expect: fail halves on the host through .data = weight.cpu() * 0.5: new storage, moved to the CPU
# hint: in.place|storage|data_ptr|same tensor|\.data|moved|host|to the cpu|on the cpu|device changed|changed device|same device
import torch


def halve_first_layer(net):
    w = net[0].weight
    w.data = w.data.cpu() * 0.5  # do the arithmetic on the host


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
