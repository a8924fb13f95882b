# expect: fail returns the output detached ("the checkpoint handles backward"): no gradient can flow to the blocks
# hint: detach|grad_fn|gradient|graph|requires_grad|backward
import functools
import math
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h.detach()
