# expect: fail runs a segment plainly when its input needs no gradient: with a data batch the first segment is left unchecked, its activations kept
# hint: requires_grad|no grad|needs no gradient|without (a )?grad|input.{0,30}grad|first segment|unchecked|without (a )?checkpoint
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        if h.requires_grad:
            h = checkpoint(segment, h, use_reentrant=False)
        else:  # checkpoint needs an input with a gradient: run this one plainly
            h = segment(h)
    return h


answer = checkpointed_forward
