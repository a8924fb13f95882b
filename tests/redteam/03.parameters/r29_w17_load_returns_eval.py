# expect: fail load_parameters returns net.eval(): the parameters and device are right, but the returned model is not the one make_net() built (it is in eval mode, make_net() gives train mode), so training it further turns off dropout and freezes BatchNorm statistics.
# hint: (eval|train(ing)? mode|\.training|dropout|batchnorm|mode)
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device).eval()  # a loaded model is for inference


answer = (halve_first_layer, save_parameters, load_parameters)
