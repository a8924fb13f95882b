# expect: fail each segment runs a copy.deepcopy of its blocks (to "freeze" them when the segment is made): the output is right but the gradients land on the copies' parameters, the caller's blocks get none
# hint: deepcopy|copy|parameter|\.grad|gradient|original blocks|caller
import copy
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        # a private copy of this segment's blocks, so that backward cannot see other ones
        part = copy.deepcopy(blocks[int(idx[0]) : int(idx[-1]) + 1])
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
    return h
