# expect: fail a generator function: returns a lazy iterator, not a list/tuple, and asks for the devices only when iterated
# hint: list|tuple|generator|lazy|iterat|len\(|yield
# Wrong: the prompt asks for a list (or tuple); a generator has no len(), cannot be indexed, and
# its body (including try_all_gpus()) runs only when the caller iterates, after the call returned.
import torch

import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    for i in range(n_workers):
        yield devices[i % len(devices)]


answer = place_workers
