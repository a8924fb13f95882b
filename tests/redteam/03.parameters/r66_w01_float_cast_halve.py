# expect: fail halving goes through w.float(), so a float64 first layer loses its precision (right only for float32/16)
# hint: dtype|float64|double|precision|float32|\.float\(\)|cast|round
# Wrong: the product is computed in float32 and copied back; for a float64 net the weight is
# not w * 0.5 but float32(w) * 0.5. A float32 or bfloat16 net hides it, and so does
# make_net().double() (its values came from float32): only true float64 values show it.
import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    w = net[0].weight
    with torch.no_grad():
        w.copy_(w.float() * 0.5)  # "compute in full precision", then write back in place


def save_parameters(net, path):
    """Save net's state_dict to path."""
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    state = torch.load(path, map_location=device, weights_only=True)
    net = make_net().to(device)
    net.load_state_dict(state)
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
