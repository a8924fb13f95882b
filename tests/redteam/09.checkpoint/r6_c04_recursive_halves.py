# expect: pass
# hint:
import torch
from torch.utils.checkpoint import checkpoint


def plan(n, segments):
    """tensor_split's sizes, written out: the first n % segments get one more."""
    q, r = divmod(n, segments)
    return [q + (s < r) for s in range(segments)]


def make_segment(chunk):
    def segment(h):
        for block in chunk:
            h = block(h)
        return h
    return segment


def answer(blocks, x, segments):
    """A factory function binds each segment's blocks (no late binding)."""
    h, start = x, 0
    for size in plan(len(blocks), segments):
        h = checkpoint(make_segment(blocks[start : start + size]), h, use_reentrant=False)
        start += size
    return h
