# expect: fail out of habit from the reentrant checkpoint, replaces an input that needs no gradient by x.detach().requires_grad_(): non-reentrant checkpointing does not need it, and backward now computes a gradient for the batch through the first segment (one more product per first Linear) that nobody asked for, every call
# hint: requires_grad|input('?s)? gradient|gradient (of|for) (the )?(input|x|batch)|detach|leaf|reentrant|extra (work|product)
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    # a checkpoint whose input needs no grad gives its parameters no grad: make sure it does
    h = x if x.requires_grad else x.detach().requires_grad_()
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        if len(part) == 0:
            continue
        seg = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h
