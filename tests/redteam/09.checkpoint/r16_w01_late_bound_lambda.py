# expect: fail lambda made in the loop reads start and stop after the loop ended: backward recomputes the last segment's blocks
# hint: lambda|late|loop variable|closure|bind|partial|after the loop|wrong blocks
import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        start, stop = int(part[0]), int(part[-1]) + 1
        h = checkpoint(lambda t: _run(blocks[start:stop], t), h, use_reentrant=False)
    return h
