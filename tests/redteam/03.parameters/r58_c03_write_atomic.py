# expect: pass serializes the state_dict into memory and writes it with d2lgpu's write_atomic; halves with div_(2); map_location=device
# hint:
import io

import torch

from d2lgpu.training_checkpoints import write_atomic


def halve_first_layer(net):
    weight = net[0].weight
    with torch.no_grad():
        weight.div_(2)  # exactly the same as * 0.5 in binary floating point


def save_parameters(net, path):
    buffer = io.BytesIO()
    torch.save(net.state_dict(), buffer)
    write_atomic(path, buffer.getvalue())  # readers see the whole file or none of it


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
