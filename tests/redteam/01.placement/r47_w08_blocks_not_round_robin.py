# expect: fail contiguous blocks (cuda:0, cuda:0, cuda:0, cuda:1, cuda:1) instead of the table's alternating order
# hint: order|round.?robin|interleav|alternat|in turn|table|block|contiguous
import d2lgpu
import torch


def place_workers(n_workers):
    """Share the workers out evenly: the first ceil(n/k) on GPU 0, the next on GPU 1, ..."""
    devices = d2lgpu.try_all_gpus()
    k = len(devices)
    per_device, extra = divmod(n_workers, k)
    out = []
    for j, device in enumerate(devices):
        out.extend([device] * (per_device + (1 if j < extra else 0)))
    return out


answer = place_workers
