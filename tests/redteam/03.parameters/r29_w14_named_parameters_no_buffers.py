# expect: fail Saves {name: parameter} from named_parameters() instead of state_dict(): right for this Linear/ReLU net, but buffers (BatchNorm's running statistics, any register_buffer) are not saved, and a strict load_state_dict then fails on missing keys.
# hint: (buffer|named_parameters|running_(mean|var)|batchnorm|missing key|state_dict\(\))
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    weights = {name: p.detach() for name, p in net.named_parameters()}
    torch.save(weights, path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
