# expect: pass
# hint:
import numpy as np
import torch.utils.checkpoint as cp


class Segment:
    def __init__(self, blocks):
        self.blocks = list(blocks)

    def __call__(self, h):
        for block in self.blocks:
            h = block(h)
        return h


def answer(blocks, x, segments):
    """numpy.array_split's sizes (the same as tensor_split's); a callable object per segment."""
    h = x
    for idx in np.array_split(np.arange(len(blocks)), segments):
        h = cp.checkpoint(Segment(blocks[int(i)] for i in idx), h, use_reentrant=False)
    return h
