# expect: fail contiguous blocks (cuda:0, cuda:0, cuda:0, cuda:1, cuda:1) instead of round-robin
# hint: round.?robin|in turn|order|alternat|interleav|block|contiguous|chunk|cuda:0, cuda:1, cuda:0|table
import math

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    per_device = math.ceil(n_workers / len(devices)) if n_workers else 1
    # each device gets a contiguous slice of the workers, as evenly as possible
    return [devices[i // per_device] for i in range(n_workers)]


answer = place_workers
