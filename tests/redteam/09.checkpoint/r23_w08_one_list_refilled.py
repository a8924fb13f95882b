# expect: fail one list object is cleared and refilled for every segment, and each partial binds that same list: when backward recomputes, every segment runs the LAST segment's blocks (late binding through a shared mutable list)
# hint: bind|same list|shared|mutable|late|after the loop|last segment|clear
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    part = []  # reused, to avoid a new list per segment
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part.clear()
        part.extend(blocks[int(i)] for i in idx)
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)  # partial binds now
    return h
