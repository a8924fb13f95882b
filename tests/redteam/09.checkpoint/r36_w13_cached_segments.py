# expect: fail caches the segment functions by block count, so a new stack of as many blocks runs the old blocks
# hint: cache|stale|old blocks|new blocks|reuse|memo|previous
# name: checkpointed_forward
import torch
from torch.utils.checkpoint import checkpoint

_plans = {}


def _make(mods):
    def run(h):
        for m in mods:
            h = m(h)
        return h

    return run


def checkpointed_forward(blocks, x, segments):
    key = (len(blocks), segments)
    if key not in _plans:  # build the segment functions once
        parts = torch.tensor_split(torch.arange(len(blocks)), segments)
        _plans[key] = [_make([blocks[int(i)] for i in p]) for p in parts]
    h = x
    for fn in _plans[key]:
        h = checkpoint(fn, h, use_reentrant=False)
    return h
