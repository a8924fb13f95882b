# expect: fail blocks.zero_grad() at the start, "so the gradients are fresh": the caller's gradients already in .grad (gradient accumulation over micro-batches) are wiped, only visible when the blocks start with gradients
# hint: zero_grad|accumulat|\.grad|existing|already|wipe
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    blocks.zero_grad()  # backward will fill them again
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
    return h
