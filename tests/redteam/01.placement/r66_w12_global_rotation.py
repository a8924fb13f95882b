# expect: fail a module-level counter carries the rotation across calls, so a second call does not start at cuda:0
# hint: second call|again|each call|start|first (worker|device)|cuda:0|state|global|counter|order|carr
# Wrong: the table's order starts every call's list at the first device; continuing the rotation
# from the previous call gives [cuda:1, cuda:0, ...] on a second call with 2 GPUs.
import torch

import d2lgpu

_next_slot = 0  # spread successive jobs over the GPUs too


def place_workers(n_workers):
    global _next_slot
    devices = d2lgpu.try_all_gpus()
    placed = [devices[(_next_slot + i) % len(devices)] for i in range(n_workers)]
    _next_slot += n_workers
    return placed


answer = place_workers
