# expect: fail devices asked once at import, not inside the function on each call
# hint: inside|each (time|call)|every call|per call|once|import|outside|cach|stale|when it is called|fake GPU|changes? what
import d2lgpu
import torch

# Ask the machine once, up front: cheaper than asking on every call.
DEVICES = d2lgpu.try_all_gpus()


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return [DEVICES[i % len(DEVICES)] for i in range(n_workers)]


answer = place_workers
