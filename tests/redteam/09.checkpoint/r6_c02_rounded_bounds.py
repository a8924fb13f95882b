# expect: pass
# hint:
import torch
from torch.utils.checkpoint import checkpoint


def run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    """Bounds round(n * s / segments): sizes differ by at most one (10 in 3: 3, 4, 3); the blocks
    and the input passed to checkpoint as arguments."""
    n = len(blocks)
    bounds = [round(n * s / segments) for s in range(segments + 1)]
    h = x
    for a, b in zip(bounds, bounds[1:]):
        h = checkpoint(run, blocks[a:b], h, use_reentrant=False)
    return h
