# expect: fail leaves the FIRST segment (the one fed the batch) unchecked instead of the last: its activations stay alive through backward
# hint: first segment|last segment|unchecked|without (a )?checkpoint|alive|one segment
import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    parts = torch.tensor_split(torch.arange(len(blocks)), segments)
    h = x
    for i, part in enumerate(parts):
        mods = [blocks[int(k)] for k in part]
        if i == 0:
            # the batch needs no gradient, so there is nothing to gain by checkpointing the
            # first segment: run it plainly (the prompt allows one unchecked segment)
            h = _run(mods, h)
        else:
            h = checkpoint(lambda t, mods=mods: _run(mods, t), h, use_reentrant=False)
    return h


answer = checkpointed_forward
