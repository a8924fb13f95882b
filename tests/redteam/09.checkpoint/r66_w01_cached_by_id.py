# expect: fail caches the segments (ModuleList slices) by id(blocks), so a refilled ModuleList reuses the old blocks
# hint: cach|stale|refill|reus|second call|previous call|same (module)?list|old blocks|new blocks
# Wrong: the cache key (id, len, segments) survives a ModuleList refilled in place with new
# blocks; the second call then runs the previous call's modules, not the blocks it was given.
import functools

import torch
from torch.utils.checkpoint import checkpoint

_segments_cache = {}


def _run(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def _segments(blocks, segments):
    key = (id(blocks), len(blocks), segments)
    if key not in _segments_cache:  # slicing and partials made once per stack
        parts = torch.tensor_split(torch.arange(len(blocks)), segments)
        _segments_cache[key] = [
            functools.partial(_run, blocks[int(p[0]) : int(p[-1]) + 1]) for p in parts
        ]
    return _segments_cache[key]


def answer(blocks, x, segments):
    h = x
    for segment in _segments(blocks, segments):
        h = checkpoint(segment, h, use_reentrant=False)
    return h
