# expect: pass copy_ under no_grad, file objects for save/load, model moved to device before load_state_dict
# hint: 
import torch


def halve_first_layer(net):
    weight = net[0].weight
    with torch.no_grad():
        weight.copy_(weight * 0.5)


def save_parameters(net, path):
    with open(path, "wb") as f:
        torch.save(net.state_dict(), f)


def load_parameters(make_net, path, device):
    net = make_net().to(device)  # load_state_dict copies into these, so the model's device wins
    with open(path, "rb") as f:
        state = torch.load(f, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
