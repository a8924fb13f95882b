# expect: fail sets the blocks' .grad to None before running, to free memory: the caller's accumulated gradients are lost
# hint: \.grad|zero|accumulat|already|leave|existing
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    for p in blocks.parameters():  # free the old gradients before the big recomputation
        p.grad = None
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
    return h


answer = checkpointed_forward
