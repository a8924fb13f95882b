# expect: pass no_grad decorator + copy_, file objects, map_location='cpu' then .to(device)
# hint: 
import torch


@torch.no_grad()
def halve_first_layer(net):
    w = net[0].weight
    w.copy_(w * 0.5)


def save_parameters(net, path):
    with open(path, "wb") as f:
        torch.save(net.state_dict(), f)


def load_parameters(make_net, path, device):
    with open(path, "rb") as f:
        state = torch.load(f, map_location="cpu", weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    net.to(device)  # a module's .to() works in place
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
