# expect: pass
# hint:
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def answer(blocks, x, segments):
    """Each segment an nn.Sequential of its blocks, handed to checkpoint itself; the longest
    segments last (10 in 3: 3, 3, 4), the last run plainly."""
    n = len(blocks)
    q, r = divmod(n, segments)
    sizes = [q] * (segments - r) + [q + 1] * r
    h, start = x, 0
    for s, size in enumerate(sizes):
        seg = nn.Sequential(*blocks[start : start + size])
        start += size
        h = seg(h) if s == segments - 1 else checkpoint(seg, h, use_reentrant=False)
    return h
