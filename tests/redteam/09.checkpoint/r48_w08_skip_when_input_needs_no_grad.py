# expect: fail runs plainly when x needs no gradient (the reentrant warning misread): the parameters still need gradients, and everything is saved
# hint: saved|bytes|memory|checkpoint|recomput|requires_grad|input

import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    if not x.requires_grad:  # "None of the inputs have requires_grad=True": nothing to checkpoint
        return _run(blocks, x)
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1]), h, use_reentrant=False)
    return h

answer = checkpointed_forward
