# expect: pass .data.mul_, torch.save to an open file, load_state_dict(strict=True) then to(device)
# hint: 
import torch
def halve(net):
    net[0].weight.data.mul_(0.5)
def save(net, path):
    with open(path, "wb") as f:
        torch.save({k: v for k, v in net.state_dict().items()}, f)
def load(make_net, path, device):
    state = torch.load(path, map_location="cpu", weights_only=True)
    net = make_net()
    net.load_state_dict(state, strict=True)
    return net.to(device)
answer = (halve, save, load)
