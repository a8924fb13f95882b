# expect: pass the segment's blocks passed to checkpoint as a non-tensor argument (no closure at all), last segment unchecked
# hint: 
import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    cuts = torch.tensor_split(torch.arange(len(blocks)), segments)
    h = x
    for n, idx in enumerate(cuts, start=1):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        if n < len(cuts):
            h = checkpoint(_run, part, h, use_reentrant=False)
        else:
            h = _run(part, h)
    return h
