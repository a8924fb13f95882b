# expect: fail use_reentrant=True: a segment whose input needs no gradient gives its parameters none
# hint: reentrant
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        mods = [blocks[int(i)] for i in part]
        h = checkpoint(functools.partial(_run, mods), h, use_reentrant=True)
    return h
