# expect: fail runs the first segment without a checkpoint instead of the last, so its activations stay alive through the whole backward and sit beside each recomputed segment: two segments' activations at once
# hint: first|last|unchecked|without a checkpoint|alive|activations|at once
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    parts = torch.tensor_split(torch.arange(len(blocks)), segments)
    for s, part in enumerate(parts):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        if s == 0:
            h = segment(h)  # one segment may go without a checkpoint
        else:
            h = checkpoint(segment, h, use_reentrant=False)
    return h
