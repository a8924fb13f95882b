# expect: fail checkpoints only the first half of the segments and runs the rest plainly, keeping too many activations
# hint: activations|memory|saved|kept|alive|unchecked|plain|not checkpoint|too many
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    parts = torch.tensor_split(torch.arange(len(blocks)), segments)
    h = x
    for s, part in enumerate(parts):
        seg = functools.partial(_run, [blocks[int(i)] for i in part])
        # backward reaches the late segments first: no point recomputing them
        h = checkpoint(seg, h, use_reentrant=False) if s < segments // 2 else seg(h)
    return h
