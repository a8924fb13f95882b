# expect: pass a factory function that returns each segment's closure over a fresh nn.Sequential of its blocks, the sizes taken from tensor_split over the block indices, all segments checkpointed
# hint: 
# name: checkpointed_forward
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def _make_segment(modules):
    chain = nn.Sequential(*modules)  # shares the blocks, copies nothing

    def segment(h):
        return chain(h)

    return segment


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = _make_segment([blocks[int(i)] for i in idx])
        h = checkpoint(segment, h, use_reentrant=False)
    return h
