# expect: fail raises ValueError when segments does not divide the number of blocks (the prompt asks for uneven splits)
# hint: raise|ValueError|divide|uneven|multiple|error
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
    if len(blocks) % segments:
        raise ValueError(f"segments ({segments}) must divide the number of blocks ({len(blocks)})")
    size = len(blocks) // segments
    h = x
    for start in range(0, len(blocks), size):
        h = checkpoint(functools.partial(run, blocks[start : start + size]), h, use_reentrant=False)
    return h
