# expect: fail stores each call's output in a module-level cache (returned as is on a later call with the same x and segments): new blocks get the old output
# hint: cache|output|new blocks|stale|differ|gradient|call
import functools
import math
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h


CACHE = {}


def answer(blocks, x, segments):
    key = (x.shape, segments, len(blocks), float(x.sum()))
    if key in CACHE:
        return CACHE[key]
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    CACHE[key] = h
    return h
