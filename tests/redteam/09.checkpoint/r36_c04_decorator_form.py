# expect: pass checkpoint's decorator form (checkpoint(use_reentrant=False)(fn)) on a Segment class, bounds via itertools.accumulate
# hint:
# name: checkpointed_forward
import itertools

import torch
from torch.utils.checkpoint import checkpoint


class _Segment:
    """A run of consecutive blocks, called like a function."""

    def __init__(self, blocks):
        self.blocks = list(blocks)

    def __call__(self, h):
        for b in self.blocks:
            h = b(h)
        return h


def _wrap(fn):
    try:
        return checkpoint(use_reentrant=False)(fn)  # torch >= 2.12's curried form
    except TypeError:
        return lambda h: checkpoint(fn, h, use_reentrant=False)


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    sizes = [n // segments + (1 if i < n % segments else 0) for i in range(segments)]
    ends = list(itertools.accumulate(sizes))
    starts = [0, *ends[:-1]]
    wrapped = [_wrap(_Segment(blocks[a:b])) for a, b in zip(starts, ends) if b > a]
    h = x
    for fn in wrapped:
        h = fn(h)
    return h
