# expect: pass a callable class; sizes from divmod (larger first), nn.Sequential per segment, all checkpointed
# hint: 
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class CheckpointedStack:
    """Calls like checkpointed_forward(blocks, x, segments)."""

    def __init__(self, use_reentrant=False):
        self.use_reentrant = use_reentrant

    @staticmethod
    def sizes(n, segments):
        q, r = divmod(n, segments)
        return [q + 1] * r + [q] * (segments - r)  # 10 in 3: 4, 3, 3

    def __call__(self, blocks, x, segments):
        h, start = x, 0
        for size in self.sizes(len(blocks), segments):
            segment = nn.Sequential(*blocks[start : start + size])  # binds these blocks now
            h = checkpoint(segment, h, use_reentrant=self.use_reentrant, preserve_rng_state=True)
            start += size
        return h


answer = CheckpointedStack()
