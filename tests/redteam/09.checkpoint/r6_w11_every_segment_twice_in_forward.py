# expect: fail runs each segment once under no_grad to "warm up" and then checkpointed: every block runs twice in the forward pass
# hint: twice|once|forward|call|extra|more
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
        with torch.no_grad():
            seg(h)
        h = checkpoint(seg, h, use_reentrant=False)
    return h
