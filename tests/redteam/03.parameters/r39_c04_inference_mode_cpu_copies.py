# expect: pass named_parameters lookup of '0.weight', in-place under inference_mode; save CPU copies of the state_dict (portable); load with with torch.device(device): make_net()
# hint: 
import torch
def halve(net):
    params = dict(net.named_parameters())
    with torch.inference_mode():
        params["0.weight"].mul_(0.5)
def save(net, path):
    torch.save({k: v.detach().cpu() for k, v in net.state_dict().items()}, path)
def load(make_net, path, device):
    with torch.device(device):
        net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net
answer = (halve, save, load)
