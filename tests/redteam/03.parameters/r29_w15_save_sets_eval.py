# expect: fail save_parameters calls net.eval() before saving: the file is right, but the caller's model is left in eval mode, so dropout and BatchNorm behave differently when training resumes after a checkpoint.
# hint: (eval|train(ing)? mode|\.training|side effect|dropout|batchnorm)
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    net.eval()  # checkpoint the inference-ready model
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
