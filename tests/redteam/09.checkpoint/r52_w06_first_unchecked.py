# expect: fail leaves the FIRST segment unchecked (its input is data): its activations stay alive through the whole backward
# hint: first|alive|at once|unchecked|last segment
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for k, idx in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        fn = functools.partial(_run, blocks[int(idx[0]) : int(idx[-1]) + 1])
        # the batch needs no gradient, so there is nothing to gain from recomputing segment 0
        h = fn(h) if k == 0 else checkpoint(fn, h, use_reentrant=False)
    return h


answer = checkpointed_forward
