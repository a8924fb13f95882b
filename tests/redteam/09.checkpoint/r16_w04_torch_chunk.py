# expect: fail torch.chunk of the block indices gives fewer segments than asked (9 in 4: 3, 3, 3)
# hint: chunk|fewer|number of segments|exactly .{0,20}segments|three segments|tensor_split
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.chunk(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
    return h
