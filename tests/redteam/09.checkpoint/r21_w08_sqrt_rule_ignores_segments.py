# expect: fail uses the sqrt(N) rule for the number of segments instead of the segments argument: right only when segments happens to equal round(sqrt(len(blocks)))
# hint: sqrt|segments argument|ignor|number of segments|rule
import functools
import math

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    # the memory-optimal count (section 9.5); `segments` is only a hint
    count = max(1, min(len(blocks), round(math.sqrt(len(blocks)))))
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), count):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
    return h
