# expect: pass a Segment nn.Module per cut, sizes from divmod
# hint: 
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class _Segment(nn.Module):
    """A run of consecutive blocks, called as one module."""

    def __init__(self, blocks):
        super().__init__()
        self.blocks = blocks

    def forward(self, h):
        for block in self.blocks:
            h = block(h)
        return h


def answer(blocks, x, segments):
    base, extra = divmod(len(blocks), segments)
    start, h = 0, x
    for s in range(segments):
        size = base + (1 if s < extra else 0)
        if size == 0:
            continue
        segment = _Segment(blocks[start : start + size])
        h = checkpoint(segment, h, use_reentrant=False)
        start += size
    return h
