# expect: fail segments cached by (len(blocks), segments) in a global dict: later calls run the old blocks
# hint: cache|stale|global|new blocks|previous|old blocks|between calls|dict
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

_SEGMENTS = {}


def _segments_for(blocks, segments):
    key = (len(blocks), segments)
    if key not in _SEGMENTS:
        _SEGMENTS[key] = [
            nn.Sequential(*blocks[int(p[0]) : int(p[-1]) + 1])
            for p in torch.tensor_split(torch.arange(len(blocks)), segments)
        ]
    return _SEGMENTS[key]


def answer(blocks, x, segments):
    h = x
    for segment in _segments_for(blocks, segments):
        h = checkpoint(segment, h, use_reentrant=False)
    return h
