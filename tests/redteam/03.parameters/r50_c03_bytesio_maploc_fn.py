# expect: pass torch.mul(out=) under set_grad_enabled(False); serialize through io.BytesIO; load with a map_location function that keeps storages on the CPU, then .to(device)
# hint:
import io
from pathlib import Path

import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    weight = net[0].weight
    with torch.set_grad_enabled(False):
        torch.mul(weight, 0.5, out=weight)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    buffer = io.BytesIO()
    torch.save(net.state_dict(), buffer)
    Path(path).write_bytes(buffer.getvalue())


def _stay_on_cpu(storage, location):
    # called once per storage with the device it was saved from ("cuda:5", ...): ignore it
    return storage


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    buffer = io.BytesIO(Path(path).read_bytes())
    state = torch.load(buffer, map_location=_stay_on_cpu, weights_only=True)
    net = make_net()
    net.load_state_dict(state)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
