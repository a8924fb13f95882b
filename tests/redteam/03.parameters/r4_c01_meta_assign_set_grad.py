# expect: pass
# hint: 
import torch
def halve(net):
    with torch.set_grad_enabled(False):
        net[0].weight.mul_(torch.tensor(0.5))
def save(net, path):
    sd = net.state_dict()
    torch.save(sd, path)
def load(make_net, path, device):
    with torch.device("meta"):
        net = make_net()
    state = torch.load(path, map_location=torch.device(device), weights_only=True)
    net.load_state_dict(state, assign=True)
    return net.to(device)
answer = (halve, save, load)
