# expect: fail keeps every block's output in a module-level list "to inspect later": the activations stay alive through backward (and after the call), defeating the checkpoint
# hint: alive|activation|kept|memory|keep|reference|peak
import functools
import math
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h


TRACE = []


def traced(blocks, h):
    for b in blocks:
        h = b(h)
        TRACE.append(h)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(traced, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h
