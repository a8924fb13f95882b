# expect: fail the first segment runs without a checkpoint, so its activations stay alive through the whole backward
# hint: first segment|unchecked|without (a )?checkpoint|alive|at once|two segments|last segment
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    h = x
    for n, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        if n == 0:
            # "the input is the batch: nothing to recompute from, so run it plainly"
            h = segment(h)
        else:
            h = checkpoint(segment, h, use_reentrant=False)
    return h
