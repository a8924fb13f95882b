# expect: fail map_location={"cuda:1": device} remaps only cuda:1; a checkpoint from cuda:0 (or cuda:2) still fails without that GPU
# hint: map_location|cuda|gpu|device
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    # rename the device, as the chapter's table shows for a checkpoint saved on GPU 1
    state = torch.load(path, map_location={"cuda:1": str(device)}, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
