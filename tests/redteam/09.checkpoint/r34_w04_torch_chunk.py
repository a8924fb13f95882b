# expect: fail torch.chunk for the segments: 9 blocks in 4 gives 3, 3, 3, only three segments
# hint: segment|chunk|three|exactly|tensor_split
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _chain(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.chunk(torch.arange(len(blocks)), segments):
        seg = functools.partial(_chain, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h


answer = checkpointed_forward
