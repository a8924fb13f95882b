# expect: fail loads with weights_only=False (the prompt says weights_only=True)
# hint: weights_only
import torch
def halve(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)
def save(net, path):
    torch.save(net.state_dict(), path)
def load(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=False))
    return net.to(device)
answer = (halve, save, load)
