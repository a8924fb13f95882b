# expect: fail caches the segment functions between calls by id(blocks), length and segments; when the same ModuleList is refilled with new blocks, the stale functions run the old blocks
# hint: cach|stale|previous call|earlier call|refill|reus|memo|old blocks
import functools

import torch
from torch.utils.checkpoint import checkpoint

_segment_cache = {}


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def _segments_for(blocks, segments):
    key = (id(blocks), len(blocks), segments)
    if key not in _segment_cache:
        n = len(blocks)
        _segment_cache[key] = [
            functools.partial(_run, blocks[int(p[0]) : int(p[-1]) + 1])
            for p in torch.tensor_split(torch.arange(n), min(segments, n))
        ]
    return _segment_cache[key]


def checkpointed_forward(blocks, x, segments):
    if len(blocks) == 0:
        return x
    h = x
    for segment in _segments_for(blocks, segments):
        h = checkpoint(segment, h, use_reentrant=False)
    return h


answer = checkpointed_forward
