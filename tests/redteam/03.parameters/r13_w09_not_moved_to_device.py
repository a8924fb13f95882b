# expect: fail loads the tensors onto device but into a CPU model, and returns it on the CPU
# hint: returned a model on cpu|not on (the )?(requested |given |target )?device|(returned|left|stays?|still) on the cpu|\.to\(device\)|load_state_dict copies|model'?s device|wrong device|expected .*on .*device
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)  # the tensors are already on device
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
