# expect: fail caches the segment modules per ModuleList between calls: a refilled ModuleList runs the previous call's blocks
# hint: cache|stale|previous|earlier call|refill|old blocks|between calls|same ModuleList|state
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

_segments_of = {}  # built once per (ModuleList, segments): no re-slicing on every step


def _segments(blocks, segments):
    key = (id(blocks), len(blocks), segments)
    if key not in _segments_of:
        _segments_of[key] = [
            nn.Sequential(*(blocks[int(k)] for k in part))
            for part in torch.tensor_split(torch.arange(len(blocks)), segments)
        ]
    return _segments_of[key]


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for seq in _segments(blocks, segments):
        h = checkpoint(seq, h, use_reentrant=False)
    return h


answer = checkpointed_forward
