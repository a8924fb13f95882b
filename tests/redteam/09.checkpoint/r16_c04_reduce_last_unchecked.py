# expect: pass nn.Sequential per segment folded with functools.reduce, last segment unchecked
# hint: 
import functools

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def _through(h, segment):
    return checkpoint(segment, h, use_reentrant=False)


def answer(blocks, x, segments):
    parts = [
        nn.Sequential(*blocks[int(p[0]) : int(p[-1]) + 1])
        for p in torch.tensor_split(torch.arange(len(blocks)), segments)
        if len(p)
    ]
    *checked, last = parts
    return last(functools.reduce(_through, checked, x))
