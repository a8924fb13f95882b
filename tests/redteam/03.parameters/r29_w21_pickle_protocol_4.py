# expect: fail save_parameters passes pickle_protocol=4 ("faster for large files"): the file holds only the state_dict, but torch.load(..., weights_only=True) refuses protocol-4 opcodes, so the checkpoint cannot be loaded safely, here or anywhere.
# hint: (pickle_protocol|protocol|opcode|operand|unpickl|weights_only)
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path, pickle_protocol=4)  # newer, faster pickle format


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
