# expect: fail skips the checkpoint on one-block segments ("nothing to save"), so with many segments several non-last segments run unchecked
# hint: single|one[- ]block|each segment|every segment|unchecked|without (a )?checkpoint|recomput
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
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        mods = [blocks[int(k)] for k in part]
        if len(mods) == 1:
            # a segment of one block keeps its input anyway: checkpointing it buys nothing
            h = mods[0](h)
        else:
            h = checkpoint(functools.partial(_run, mods), h, use_reentrant=False)
    return h


answer = checkpointed_forward
