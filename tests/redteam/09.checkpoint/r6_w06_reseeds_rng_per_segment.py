# expect: fail calls torch.manual_seed(0) inside each segment so that dropout "repeats" in the recomputation: the masks are not those a plain forward draws, and the global RNG is reset
# hint: random|rng|dropout|seed|output|differ|gradient
import functools
import math
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h


def seeded(blocks, h):
    torch.manual_seed(0)
    return run(blocks, h)


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(seeded, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h
