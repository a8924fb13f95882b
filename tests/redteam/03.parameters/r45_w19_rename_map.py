# expect: fail map_location={'cuda:1': 'cuda:0'} from the chapter's table: other GPUs, and machines without one, still fail
# hint: map.?location|device|cuda|gpu
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location={"cuda:1": "cuda:0"}, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
