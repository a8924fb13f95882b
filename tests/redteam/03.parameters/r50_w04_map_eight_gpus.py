# expect: fail map_location is a dict that renames only cuda:0..cuda:7 (and cpu), so a checkpoint from cuda:8 or higher still asks for a GPU that is not there
# hint: map_location|cuda|gpu|device
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    # rename every GPU a node can have (8 per node) onto ours, as in the chapter's table
    target = str(torch.device(device))
    renames = {f"cuda:{i}": target for i in range(8)}
    renames["cpu"] = target
    state = torch.load(path, map_location=renames, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
