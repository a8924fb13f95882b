# expect: fail Shares the workers out in contiguous blocks (cuda:0, cuda:0, cuda:0, cuda:1, cuda:1) instead of round-robin, so the order differs from the table.
# hint: round.?robin|order|in turn|cuda:0, cuda:1
# name: place_workers
import math

import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    per_device = max(1, math.ceil(n_workers / len(devices)))
    return [devices[i // per_device] for i in range(n_workers)]


answer = place_workers
