# expect: fail caches the segment modules per ModuleList between calls: a refilled ModuleList runs its old blocks
# hint: refill|new blocks|stale|cache|call before|previous|earlier call|old blocks|state
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

_segments_cache = {}


def _segments_of(blocks, segments):
    key = (id(blocks), len(blocks), segments)
    if key not in _segments_cache:  # build the Sequentials once per stack, reuse them after
        _segments_cache[key] = [
            nn.Sequential(*(blocks[int(i)] for i in idx))
            for idx in torch.tensor_split(torch.arange(len(blocks)), segments)
        ]
    return _segments_cache[key]


def checkpointed_forward(blocks, x, segments):
    h = x
    for seg in _segments_of(blocks, segments):
        h = checkpoint(seg, h, use_reentrant=False)
    return h


answer = checkpointed_forward
