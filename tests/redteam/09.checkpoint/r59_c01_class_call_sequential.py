# expect: pass a callable class; each tensor_split segment wrapped as an nn.Sequential and checkpointed, the last one too
# hint:
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class SegmentCheckpointer:
    """Calls like checkpointed_forward(blocks, x, segments)."""

    def __init__(self, use_reentrant=False):
        self.use_reentrant = use_reentrant

    def __call__(self, blocks, x, segments):
        n = len(blocks)
        if n == 0:
            return x
        h = x
        for idx in torch.tensor_split(torch.arange(n), min(segments, n)):
            segment = nn.Sequential(*[blocks[i] for i in idx.tolist()])
            h = checkpoint(segment, h, use_reentrant=self.use_reentrant)
        return h


answer = SegmentCheckpointer()
