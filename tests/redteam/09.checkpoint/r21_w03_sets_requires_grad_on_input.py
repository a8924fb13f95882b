# expect: fail x.requires_grad_() on the caller's tensor ("checkpoint needs an input that requires grad"): mutates the input, and backward computes and stores a gradient for the data batch it never needed
# hint: requires_grad|input|x\.grad|mutat|caller|data batch
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    if not x.requires_grad and x.is_leaf:
        x.requires_grad_()  # otherwise the checkpointed segments would have nothing to differentiate
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
    return h
