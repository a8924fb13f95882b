# expect: fail replaces the weight with a new Parameter
# hint: different Parameter object
import torch
from torch import nn
def halve(net):
    net[0].weight = nn.Parameter(net[0].weight.detach() * 0.5)
def save(net, path):
    torch.save(net.state_dict(), path)
def load(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net
answer = (halve, save, load)
