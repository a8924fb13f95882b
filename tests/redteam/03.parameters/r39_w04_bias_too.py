# expect: fail halve also halves net[0].bias
# hint: bias
import torch
from torch import nn
def halve(net):
    with torch.no_grad():
        for p in net[0].parameters():
            p.mul_(0.5)
def save(net, path):
    torch.save(net.state_dict(), path)
def load(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)
answer = (halve, save, load)
