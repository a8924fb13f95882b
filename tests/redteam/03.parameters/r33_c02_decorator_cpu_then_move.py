# expect: pass @torch.no_grad() decorator with *=, loads onto the CPU (map_location="cpu") and moves the built model to device
# hint:
import torch


@torch.no_grad()
def halve_first_layer(net):
    w = net[0].weight
    w *= 0.5


def save_parameters(net, path):
    state = net.state_dict()
    torch.save(state, str(path))


def load_parameters(make_net, path, device):
    state = torch.load(str(path), map_location="cpu", weights_only=True)
    model = make_net()
    model.load_state_dict(state)
    model.to(device)
    return model


answer = (halve_first_layer, save_parameters, load_parameters)
