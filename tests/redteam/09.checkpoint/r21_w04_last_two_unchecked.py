# expect: fail off-by-one in "leave the last segment unchecked": the last two segments run without a checkpoint, so two segments' activations are kept (and only segments - 2 recomputed)
# hint: off.by.one|last two|two segments|unchecked|activations|segments - 1
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    parts = [
        blocks[int(p[0]) : int(p[-1]) + 1]
        for p in torch.tensor_split(torch.arange(len(blocks)), segments)
    ]
    h = x
    for s, part in enumerate(parts):
        if s < len(parts) - 2:  # the last one runs plain, as checkpoint_sequential does
            h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
        else:
            h = _run(part, h)
    return h
