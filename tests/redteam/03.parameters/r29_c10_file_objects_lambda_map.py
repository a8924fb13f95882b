# expect: pass
# hint: 
import torch


def halve_first_layer(net):
    weight = net[0].weight
    with torch.no_grad():
        weight.div_(2)  # same Parameter, same storage


def save_parameters(net, path):
    with open(path, "wb") as f:
        torch.save(net.state_dict(), f)


def load_parameters(make_net, path, device):
    # every storage stays on the CPU, whatever device it was saved from
    with open(path, "rb") as f:
        state = torch.load(f, map_location=lambda storage, loc: storage, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)  # copies the CPU values into the tensors on device
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
