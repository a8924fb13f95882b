# expect: fail shares the workers out evenly (same count per GPU) but shuffles the assignment "to avoid hot spots": the counts are right, the order is not the table's round-robin (and on one GPU or none the shuffle is invisible, so it shows only with 2+ GPUs).
# hint: (order|round.?robin|shuffl|random|in turn|cuda:0, cuda:1|sequence|table)
import random

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, evenly over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    placed = [devices[i % len(devices)] for i in range(n_workers)]
    random.Random(0).shuffle(placed)  # reproducible, still balanced
    return placed


answer = place_workers
