# expect: fail devices asked once at import, not on each call
# hint: once|each (time|call)|every call|inside the function|import|module|cach|stale|outside
import d2lgpu
import torch

# Ask once, up front: "pick the device once, at the top, and pass it on".
DEVICES = d2lgpu.try_all_gpus()


def place_workers(n_workers):
    """Round-robin over the devices found when this module was loaded."""
    return [DEVICES[i % len(DEVICES)] for i in range(n_workers)]


answer = place_workers
