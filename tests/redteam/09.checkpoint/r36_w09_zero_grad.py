# expect: fail zeroes the blocks' gradients, wiping what the caller left in .grad
# hint: zero|\.grad|leave|existing|already|accumulat
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    blocks.zero_grad()  # start from clean gradients
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(_run, [blocks[int(i)] for i in part]), h, use_reentrant=False)
    return h
