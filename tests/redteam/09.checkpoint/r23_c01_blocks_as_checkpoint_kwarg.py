# expect: pass the segment's blocks handed to checkpoint as a keyword argument (non-reentrant checkpoint forwards **kwargs to the function), so nothing is bound in a closure at all; tensor_split sizes
# hint: 
import torch
from torch.utils.checkpoint import checkpoint


def _segment(h, *, part):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        # `part` travels with the call: backward replays _segment(h, part=...) with this very tuple
        h = checkpoint(_segment, h, use_reentrant=False, part=tuple(blocks[i] for i in idx.tolist()))
    return h
