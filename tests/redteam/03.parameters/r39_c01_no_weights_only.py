# expect: pass load without weights_only=True, torch's default since 2.6
# hint: 
import torch
from torch import nn
def halve(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)
def save(net, path):
    torch.save(net.state_dict(), path)
def load(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device))
    return net.to(device)
answer = (halve, save, load)
