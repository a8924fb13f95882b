# expect: fail caches the segment functions between calls, keyed by (number of blocks, segments): a later call with other blocks of the same length runs the first call's blocks
# hint: blocks|output|gradient|differ|wrong|cache
import functools
from torch.utils.checkpoint import checkpoint
import torch
_segments = {}
def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h
def answer(blocks, x, segments):
    key = (len(blocks), segments)
    if key not in _segments:  # build the segment functions once
        _segments[key] = [
            functools.partial(run, blocks[int(p[0]) : int(p[-1]) + 1])
            for p in torch.tensor_split(torch.arange(len(blocks)), segments)
        ]
    h = x
    for seg in _segments[key]:
        h = checkpoint(seg, h, use_reentrant=False)
    return h
