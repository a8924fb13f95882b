# expect: pass copy_ halving, saves through a BytesIO buffer, map_location callable then .to(device)
# hint: 
import io
from pathlib import Path

import torch
from torch import nn

def halve_first_layer(net):
    first = net[0]
    with torch.no_grad():
        first.weight.copy_(first.weight / 2)

def save_parameters(net, path):
    buffer = io.BytesIO()
    torch.save(net.state_dict(), buffer)
    Path(path).write_bytes(buffer.getvalue())

def load_parameters(make_net, path, device):
    # a callable map_location: keep every storage where torch.load made it (the CPU)
    state = torch.load(Path(path), map_location=lambda storage, location: storage, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)  # copies into the parameters already on device
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
