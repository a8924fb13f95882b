# expect: fail caches the segment functions by (number of blocks, segments): a later call with new blocks of the same count runs the old blocks
# hint: cache|stale|previous call|earlier call|between calls|old blocks|new blocks|state|memo
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


_segments_cache = {}


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    key = (len(blocks), segments)
    if key not in _segments_cache:  # build the split once per shape
        _segments_cache[key] = [
            functools.partial(_run, blocks[int(p[0]) : int(p[-1]) + 1])
            for p in torch.tensor_split(torch.arange(len(blocks)), segments)
        ]
    h = x
    for segment in _segments_cache[key]:
        h = checkpoint(segment, h, use_reentrant=False)
    return h


answer = checkpointed_forward
