# expect: pass map_location as a function keeping every storage on the CPU, the model moved to device before load_state_dict copies into it; in-place *= under no_grad; save through an open file
# hint:
import torch


def halve_first_layer(net):
    with torch.no_grad():
        w = net[0].weight
        w *= 0.5  # augmented assignment on a tensor is in place


def save_parameters(net, path):
    with open(path, "wb") as f:
        torch.save(net.state_dict(), f)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=lambda storage, location: storage, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)  # copies the CPU values into the parameters on device
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
