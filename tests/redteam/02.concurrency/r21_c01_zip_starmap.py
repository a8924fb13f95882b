# expect: pass itertools.starmap over (lane, tensor) pairs builds all futures into a list first, then waits in a second pass
# hint: 
import itertools

import torch


def _launch(lane, t):
    return lane.submit(torch.matmul, t, t)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = list(itertools.starmap(_launch, zip(lanes[:2], (x, y))))  # both launched
    return tuple(f.result() for f in futures)


answer = run_concurrently
