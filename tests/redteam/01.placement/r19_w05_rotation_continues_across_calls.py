# expect: fail a module-level counter keeps turning between calls, so a second call does not start at the first device
# hint: start|first worker|previous call|between calls|state|counter|each call|every call|order|round.?robin
import itertools

import d2lgpu

_turn = itertools.count()  # shared by every call: later jobs continue the rotation


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    return [devices[next(_turn) % len(devices)] for _ in range(n_workers)]


answer = place_workers
