# expect: pass no closure at all: the segment's blocks are passed to checkpoint as an argument; index boundaries memoised by (n, segments) only
# hint:
import functools

import torch
from torch.utils.checkpoint import checkpoint


@functools.lru_cache(maxsize=None)
def _bounds(n, segments):
    """(start, end) of each segment: torch.tensor_split's sizes, ints only."""
    return tuple((int(p[0]), int(p[-1]) + 1) for p in torch.tensor_split(torch.arange(n), segments))


def _apply(h, mods):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for start, end in _bounds(len(blocks), segments):
        h = checkpoint(_apply, h, tuple(blocks[start:end]), use_reentrant=False)
    return h


answer = checkpointed_forward
