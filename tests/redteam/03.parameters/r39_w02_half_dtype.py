# expect: fail 'halve' read as .half(): net[0].half() converts the layer to float16 in place instead of multiplying by 0.5
# hint: 0\.5|half|float16|dtype
import torch
from torch import nn
def halve(net):
    with torch.no_grad():
        net[0].half()
def save(net, path):
    torch.save(net.state_dict(), path)
def load(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net.to(device)
answer = (halve, save, load)
