# expect: pass
# hint:
# Right: a callable instance; sizes from divmod (the larger segments first, as tensor_split),
# each segment an nn.Sequential made in the loop, every segment checkpointed.
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class CheckpointedStack:
    """Runs a ModuleList in `segments` checkpointed segments of consecutive blocks."""

    def __init__(self, use_reentrant=False):
        self.use_reentrant = use_reentrant

    def sizes(self, n, segments):
        base, extra = divmod(n, segments)
        return [base + 1] * extra + [base] * (segments - extra)

    def __call__(self, blocks, x, segments):
        h, start = x, 0
        for size in self.sizes(len(blocks), segments):
            segment = nn.Sequential(*blocks[start : start + size])  # bound now, not later
            h = checkpoint(segment, h, use_reentrant=self.use_reentrant)
            start += size
        return h


answer = CheckpointedStack()
