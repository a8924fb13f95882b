# expect: fail use_reentrant=True: parameters of a segment whose input needs no gradient get none
# hint: reentrant
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _chain(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_chain, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=True)
    return h


answer = checkpointed_forward
