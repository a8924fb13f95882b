# expect: fail steps of ceil(n / segments), topped up with tensor_split only when that yields too few segments: 10 blocks in 3 become 4, 4, 2 (sizes differ by two, which the prompt forbids: "sizes that differ by at most one"), though the count and the longest segment are right
# hint: differ by at most one|differ by|uneven|4, 4, 2|tensor_split|balanc|sizes
import functools
import math

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    n = len(blocks)
    step = math.ceil(n / segments)  # no segment longer than this
    bounds = list(range(0, n, step)) + [n]
    if len(bounds) - 1 != segments:
        # steps of ceil can give too few segments (9 in 4: 3, 3, 3): fall back to tensor_split
        parts = torch.tensor_split(torch.arange(n), segments)
        bounds = [int(p[0]) for p in parts] + [n]
    h = x
    for lo, hi in zip(bounds, bounds[1:]):
        h = checkpoint(functools.partial(_run, blocks[lo:hi]), h, use_reentrant=False)
    return h
