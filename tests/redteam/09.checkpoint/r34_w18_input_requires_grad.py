# expect: fail calls x.requires_grad_() on the caller's input "so that checkpoint builds a graph": changes the caller's tensor (it now requires grad and gets a .grad)
# hint: requires_grad|input|caller|x
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _chain(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    if not x.requires_grad:
        x.requires_grad_()
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_chain, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h


answer = checkpointed_forward
