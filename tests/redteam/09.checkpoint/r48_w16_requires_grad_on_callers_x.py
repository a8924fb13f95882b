# expect: fail sets requires_grad on the caller's x in place (old advice for checkpoint): the caller's tensor changes and gains a .grad the plain forward never gives it
# hint: input.{0,4}s? grad|\bx.{0,4}s? grad|gradient of (the )?(input|x)|input|requires_grad|caller|changed

import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    if x.is_leaf and not x.requires_grad:
        x.requires_grad_(True)  # "make sure the checkpointed input requires grad"
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1]), h, use_reentrant=False)
    return h

answer = checkpointed_forward
