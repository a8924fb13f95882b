# expect: fail save moves the model to the CPU first
# hint: moved the model itself to the CPU
import torch
def halve(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)
def save(net, path):
    torch.save(net.cpu().state_dict(), path)
def load(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net
answer = (halve, save, load)
