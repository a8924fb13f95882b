# expect: pass collections.deque rotated one step per worker
# hint: 
from collections import deque

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    ring = deque(d2lgpu.try_all_gpus())
    placed = []
    for _ in range(n_workers):
        placed.append(ring[0])
        ring.rotate(-1)  # the next device comes to the front
    return placed


answer = place_workers
