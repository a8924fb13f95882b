# expect: fail save_parameters writes the file on a background thread and returns before it is written
# hint: thread|async|background|not (yet )?(written|complete|finished)|before .*(written|saved|returns?)|race|incomplete|join|wait
# Wrong: "non-blocking checkpointing": the caller may read the file before it exists or is
# complete, and a change made right after the call (another halving) can end up in the file.
import threading

import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    state = net.state_dict()  # references to the live tensors, not copies
    threading.Thread(target=torch.save, args=(state, path), daemon=True).start()


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
