# expect: pass in-place mul_ by a 0-dim tensor of the weight's dtype and device; save with explicit keep_vars=False; load memory-mapped onto the CPU (plain load as fallback), strict, then .to(device)
# hint:
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    weight = net[0].weight
    half = torch.tensor(0.5, dtype=weight.dtype, device=weight.device)
    with torch.no_grad():
        weight.mul_(half)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(keep_vars=False), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    try:  # memory-mapped: no second copy of the file in host memory
        state = torch.load(path, map_location="cpu", weights_only=True, mmap=True)
    except RuntimeError:  # mmap needs the zip format; an old-format file loads the plain way
        state = torch.load(path, map_location="cpu", weights_only=True)
    net = make_net()
    net.load_state_dict(state, strict=True)  # copies out of the mapped file
    del state
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
