# expect: fail halve also flips the net to eval mode (net.eval()) 'to be safe': an unrequested side effect on the caller's model (training flag)
# hint: train|eval|mode
import torch
from torch import nn
def halve(net):
    net.eval()
    with torch.no_grad():
        net[0].weight.mul_(0.5)
def save(net, path):
    torch.save(net.state_dict(), path)
def load(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)
answer = (halve, save, load)
