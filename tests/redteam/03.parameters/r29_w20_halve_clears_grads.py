# expect: fail halve_first_layer also calls net.zero_grad() ("the old gradients are stale now"): the weight is halved correctly, but every parameter's .grad is dropped, work the prompt does not ask for, which loses gradients being accumulated across micro-batches.
# hint: (zero_grad|\.grad|gradient|side effect|None)
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)
    net.zero_grad()  # gradients were computed for the old weights


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
