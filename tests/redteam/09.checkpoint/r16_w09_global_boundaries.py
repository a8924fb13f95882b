# expect: fail every segment's output appended to a module-level list never cleared: each call's boundaries stay alive
# hint: global|list|never cleared|clear|leak|kept alive|between calls|references|boundaries
import functools

import torch
from torch.utils.checkpoint import checkpoint

boundaries = []  # the segments' outputs, for inspection


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
        boundaries.append(h)
    return h
