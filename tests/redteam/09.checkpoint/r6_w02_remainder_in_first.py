# expect: fail floor sizes with the whole remainder added to the FIRST segment: right for 10 in 3 (4, 3, 3), but 11 in 4 gives 5, 2, 2, 2 (longer than ceil)
# hint: longer|ceil|size|segment|remainder|at most
import functools
import math
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h


def answer(blocks, x, segments):
    n = len(blocks)
    sizes = [n // segments] * segments
    sizes[0] += n % segments
    h, start = x, 0
    for size in sizes:
        seg = functools.partial(run, blocks[start : start + size])
        h = checkpoint(seg, h, use_reentrant=False)
        start += size
    return h
