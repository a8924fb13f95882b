# expect: pass copy_ under no_grad, map_location as a string
# hint: 
import torch
def halve(net):
    with torch.no_grad():
        w = net[0].weight
        w.copy_(w / 2)
def save(net, path):
    torch.save(net.state_dict(), str(path))
def load(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=str(device), weights_only=True))
    return net
answer = (halve, save, load)
