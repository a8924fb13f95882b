# expect: fail runs the first segment without a checkpoint (its input needs no gradient) and checkpoints the rest, last included, so the first segment's activations stay alive through all of backward
# hint: first segment|unchecked|without (a )?checkpoint|not checkpointed|no checkpoint|alive|at once|more than one segment|two segments
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    parts = torch.tensor_split(torch.arange(len(blocks)), segments)
    for k, part in enumerate(parts):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        if k == 0:  # the first segment sees the data: nothing to save
            h = segment(h)
        else:
            h = checkpoint(segment, h, use_reentrant=False)
    return h
