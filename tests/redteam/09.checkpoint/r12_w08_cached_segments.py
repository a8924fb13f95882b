# expect: fail caches the segment functions between calls by (number of blocks, segments), so a later call with new blocks of the same count runs (and recomputes) the first call's blocks
# hint: cache|between calls|state|stale|previous (call|blocks)|old blocks|new blocks|lru|memo|global
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint

_segment_functions = {}  # (number of blocks, segments) -> the segments' functions


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    key = (len(blocks), segments)
    if key not in _segment_functions:  # build the split once, reuse it on later calls
        _segment_functions[key] = [
            functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
            for part in torch.tensor_split(torch.arange(len(blocks)), segments)
        ]
    h = x
    for segment in _segment_functions[key]:
        h = checkpoint(segment, h, use_reentrant=False)
    return h
