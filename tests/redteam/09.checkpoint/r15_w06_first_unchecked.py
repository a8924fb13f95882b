# expect: fail leaves the FIRST segment unchecked instead of the last: its activations stay alive through the whole backward
# hint: first segment|unchecked|without (a )?checkpoint|alive|last segment|which segment
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    parts = torch.tensor_split(torch.arange(len(blocks)), segments)
    h = x
    for i, part in enumerate(parts):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        if i == 0:
            h = segment(h)  # one segment may run without a checkpoint
        else:
            h = checkpoint(segment, h, use_reentrant=False)
    return h


answer = checkpointed_forward
