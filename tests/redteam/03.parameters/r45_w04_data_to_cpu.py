# expect: fail the weight.data rebound to a new (host) tensor: the same Parameter, its values in new memory, not changed in place
# hint: new memory|data_ptr|in place
import torch


def halve_first_layer(net):
    with torch.no_grad():
        # compute on the host, then put the values back into the same Parameter
        net[0].weight.data = net[0].weight.detach().cpu() * 0.5


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net()
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
