# expect: fail cuts into segments + 1 pieces (reads `segments` as the number of cuts): shorter segments, more of them than asked
# hint: segment|number|more|count|recomput|asked
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
    for part in torch.tensor_split(torch.arange(len(blocks)), segments + 1):
        if len(part) == 0:
            continue
        seg = functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h
