# expect: fail halve moves the weight to the CPU to halve it and assigns back a CPU Parameter: not the same object nor device
# hint: device|same|Parameter
import torch
from torch import nn
def halve(net):
    with torch.no_grad():
        w = net[0].weight.cpu() * 0.5
        net[0].weight = nn.Parameter(w)
def save(net, path):
    torch.save(net.state_dict(), path)
def load(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)
answer = (halve, save, load)
