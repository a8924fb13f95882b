# expect: fail runs the first segment under torch.no_grad() "because the batch needs no gradient": the first segment's parameters get no gradient
# hint: no_grad|gradient|none|first|parameter|grad
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
    for s, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        seg = functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1])
        if s == 0 and not x.requires_grad:
            with torch.no_grad():
                h = seg(h)
        else:
            h = checkpoint(seg, h, use_reentrant=False)
    return h
