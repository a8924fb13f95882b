# expect: pass copy_ of the halved value under no_grad; build on meta device and load_state_dict(assign=True)
# hint: 
import torch
def halve(net):
    with torch.no_grad():
        net[0].weight.copy_(net[0].weight * 0.5)
def save(net, path):
    torch.save(net.state_dict(), path)
def load(make_net, path, device):
    with torch.device("meta"):
        net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True), assign=True)
    return net
answer = (halve, save, load)
