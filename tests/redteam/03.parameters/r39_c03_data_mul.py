# expect: pass w.data.mul_(0.5) (in place on the same storage, unrecorded; the older idiom instead of no_grad)
# hint: 
import torch
from torch import nn
def halve(net):
    net[0].weight.data.mul_(0.5)
def save(net, path):
    torch.save(net.state_dict(), path)
def load(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)
answer = (halve, save, load)
