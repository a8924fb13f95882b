# expect: fail saves the whole module
# hint: state_dict.*not the module
import torch
def halve(net):
    with torch.no_grad():
        net[0].weight *= 0.5
def save(net, path):
    torch.save(net, path)
def load(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=False).state_dict())
    return net
answer = (halve, save, load)
