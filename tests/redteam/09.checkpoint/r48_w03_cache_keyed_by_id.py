# expect: fail segment functions cached by id(blocks): a new ModuleList that reuses a freed one's id runs (and recomputes) the old blocks
# hint: block|cache|stale|previous|new|output|gradient|recomput

import functools

import torch
from torch.utils.checkpoint import checkpoint

_segments_cache = {}


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def _segment_fns(blocks, segments):
    key = (id(blocks), segments)  # build the partials once per model, not on every step
    if key not in _segments_cache:
        parts = torch.tensor_split(torch.arange(len(blocks)), segments)
        _segments_cache[key] = [
            functools.partial(_run, blocks[int(p[0]) : int(p[-1]) + 1]) for p in parts
        ]
    return _segments_cache[key]


def checkpointed_forward(blocks, x, segments):
    h = x
    for fn in _segment_fns(blocks, segments):
        h = checkpoint(fn, h, use_reentrant=False)
    return h

answer = checkpointed_forward
