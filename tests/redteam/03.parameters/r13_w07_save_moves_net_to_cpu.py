# expect: fail save_parameters calls net.cpu(), which moves the caller's model to the CPU in place
# hint: moved|\.cpu\(\)|left on the cpu|now on the cpu|side.effect|caller|changes? the (model|net)|(model|net) .*device .*(after|changed)|save_parameters .*(device|cpu)
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    # a portable file: the tensors on the CPU
    torch.save(net.cpu().state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
