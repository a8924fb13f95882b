# expect: fail .float() returns the Parameter itself only when the net is float32; for a float64 (or half/bfloat16) net it returns a new tensor, so mul_ halves a throw-away copy and net[0].weight is left unchanged.
# hint: (float\(\)|\.float|dtype|copy|float64|double|half|bfloat16|not (changed|halved)|unchanged|same (parameter|tensor|object))
import torch


def halve_first_layer(net):
    with torch.no_grad():
        w = net[0].weight.float()  # make sure we work in float32
        w.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
