# expect: pass
# hint:
# Right: each segment an nn.Sequential of its blocks (a module is a callable that binds its
# blocks), passed straight to checkpoint; the last segment runs unchecked, as the prompt allows.
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def answer(blocks, x, segments):
    parts = [p.tolist() for p in torch.tensor_split(torch.arange(len(blocks)), segments)]
    h = x
    for k, idx in enumerate(parts):
        seg = nn.Sequential(*(blocks[i] for i in idx))
        if k == len(parts) - 1:
            h = seg(h)  # backward would recompute it at once: no checkpoint needed
        else:
            h = checkpoint(seg, h, use_reentrant=False)
    return h
