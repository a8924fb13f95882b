# expect: pass torch.arange(n).split(sizes) for the index groups, the blocks gathered with map(blocks.__getitem__, ...) into a tuple bound by a default argument of a nested def
# hint: 
# name: checkpointed_forward
import torch
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    sizes = [n // segments + (k < n % segments) for k in range(segments)]
    h = x
    for idx in torch.arange(n).split([s for s in sizes if s]):
        chosen = tuple(map(blocks.__getitem__, idx.tolist()))

        def segment(t, chosen=chosen):
            for block in chosen:
                t = block(t)
            return t

        h = checkpoint(segment, h, use_reentrant=False)
    return h
