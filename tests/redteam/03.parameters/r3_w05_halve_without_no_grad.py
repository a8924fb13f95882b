# expect: fail an in-place change under autograd
# hint: no_grad
import torch
def halve(net):
    net[0].weight.mul_(0.5)
def save(net, path):
    torch.save(net.state_dict(), path)
def load(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net
answer = (halve, save, load)
