# expect: pass halves by slice assignment under torch.inference_mode(), loads into a net already moved to device
# hint: 
import torch


def halve_first_layer(net):
    weight = net[0].weight
    with torch.inference_mode():  # records nothing, like no_grad
        weight[...] = weight * 0.5


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
