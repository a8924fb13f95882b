# expect: pass @torch.no_grad() decorator with div_(2), saves detached CPU copies of the state_dict, map_location=torch.device(device)
# hint: 
import torch


@torch.no_grad()
def halve_first_layer(net):
    net[0].weight.div_(2)


def save_parameters(net, path):
    # CPU copies: the file names no GPU at all; the model itself stays where it is
    torch.save({name: t.detach().cpu() for name, t in net.state_dict().items()}, path)


def load_parameters(make_net, path, device):
    device = torch.device(device)
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
