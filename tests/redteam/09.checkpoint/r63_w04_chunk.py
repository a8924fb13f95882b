# expect: fail torch.chunk gives fewer than `segments` pieces for some sizes (9 blocks in 4: 3, 3, 3), all checkpointed
# hint: (number of|how many|count of|exactly) .{0,20}segments|segments?.{0,30}(fewer|too few|three|\b3\b)|chunk|tensor_split
# Wrong: the prompt names this split as wrong: chunk keeps pieces of ceil(N/S) and so can give
# fewer than S of them; right whenever it happens to give S (16 in 4, 10 in 4).
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _plain(mods, h):
    for m in mods:
        h = m(h)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.chunk(torch.arange(len(blocks)), segments):
        seg = functools.partial(_plain, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h
