# expect: fail calls blocks.train() to be sure the recomputation sees training mode, which turns dropout on for blocks the caller put in eval mode and changes their output
# hint: eval|train|mode|dropout
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
    blocks.train()  # recompute in the same mode as the forward
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
    return h
