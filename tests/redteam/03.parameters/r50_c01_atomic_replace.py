# expect: pass atomic save through a temporary file in the same folder and os.replace; fresh model moved to device first, checkpoint loaded with map_location=device
# hint:
import os
import tempfile

import torch


def halve_first_layer(net):
    """Halve net[0].weight in place, unrecorded by autograd."""
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    """Save net's state_dict to path."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    # write beside the target, then swap it in: a crash never leaves half a checkpoint at path
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".partial-", suffix=".pt")
    try:
        with os.fdopen(fd, "wb") as out:
            torch.save(net.state_dict(), out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)  # overwrites an existing file, on POSIX and Windows alike
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def load_parameters(make_net, path, device):
    """Return make_net() with the parameters saved at path, on device."""
    net = make_net().to(device)  # the model's device wins in load_state_dict
    state = torch.load(path, map_location=device, weights_only=True)
    net.load_state_dict(state)  # strict: every key, every shape
    return net


answer = (halve_first_layer, save_parameters, load_parameters)
