# expect: fail caches the segment functions by (number of blocks, segments) across calls, so a later call with new blocks of the same count runs the first call's blocks
# hint: new blocks|cache|stale|previous|earlier|blocks
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint

_segment_cache = {}


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def _segments(blocks, segments):
    key = (len(blocks), segments)
    if key not in _segment_cache:  # build the partials once, reuse them every step
        _segment_cache[key] = [
            functools.partial(_run, blocks[int(p[0]) : int(p[-1]) + 1])
            for p in torch.tensor_split(torch.arange(len(blocks)), segments)
        ]
    return _segment_cache[key]


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for segment in _segments(blocks, segments):
        h = checkpoint(segment, h, use_reentrant=False)
    return h
