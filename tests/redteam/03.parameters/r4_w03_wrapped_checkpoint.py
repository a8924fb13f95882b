# expect: fail saves {"model": state_dict} instead of the state_dict itself, and load expects that wrapper
# hint: state_dict|wrap|dict|key|model
import torch
def halve(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)
def save(net, path):
    torch.save({"model": net.state_dict(), "epoch": 0}, path)
def load(make_net, path, device):
    ckpt = torch.load(path, map_location=device, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(ckpt["model"])
    return net
answer = (halve, save, load)
