# expect: fail blocks are run with block.forward(h), not block(h): every module hook (forward and pre-forward hooks, the ones a logger or pruning uses) is skipped
# hint: forward\(|hook|__call__|block\(h\)|call the module
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block.forward(h)  # straight to the computation
    return h


def answer(blocks, x, segments):
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
    return h
