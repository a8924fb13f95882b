# expect: pass steps of ceil(n / segments), refilled with tensor_split only where they give too few segments: 10 in 3 as 4, 4, 2, the sizes torch.chunk gives, which the checker accepts as it accepts chunk's 3, 3, 3, 1 for 10 in 4 (every segment at most ceil(n / segments), exactly segments of them); relabelled right
# hint: 
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
