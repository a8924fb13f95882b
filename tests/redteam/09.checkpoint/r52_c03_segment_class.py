# expect: pass a small callable class holding a tuple of its blocks; tensor_split over a list of indices via a comprehension; every segment checkpointed
# hint:
import torch
from torch.utils.checkpoint import checkpoint


class _Segment:
    """A run of consecutive blocks, fixed when the segment is made."""

    def __init__(self, blocks):
        self.blocks = tuple(blocks)

    def __call__(self, h):
        for block in self.blocks:
            h = block(h)
        return h


def checkpointed_forward(blocks, x, segments):
    order = list(blocks)
    pieces = [
        _Segment(order[int(i)] for i in idx.tolist())
        for idx in torch.tensor_split(torch.arange(len(order)), segments)
    ]
    h = x
    for piece in pieces:
        h = checkpoint(piece, h, use_reentrant=False)
    return h


answer = checkpointed_forward
