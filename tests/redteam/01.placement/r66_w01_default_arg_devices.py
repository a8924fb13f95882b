# expect: fail devices read once, when the def runs (a default argument), not on each call
# hint: each (time|call)|every call|once|import|defin|default arg|stale|cach|inside the function
# Wrong: a default argument is evaluated when the module is loaded, so the GPU list is the one
# the machine had then; the prompt says to ask inside the function, each time it is called.
import torch

import d2lgpu


def place_workers(n_workers, devices=d2lgpu.try_all_gpus()):
    """One device per worker, round-robin over the machine's devices."""
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
