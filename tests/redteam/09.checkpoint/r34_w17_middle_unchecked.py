# expect: fail even sizes, but the MIDDLE segment runs without a checkpoint (thought: any one may run without): its activations stay alive while the later segments are recomputed
# hint: last|alive|unchecked|without a checkpoint|activations
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _chain(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    parts = torch.tensor_split(torch.arange(len(blocks)), segments)
    skip = len(parts) // 2 if len(parts) > 1 else -1
    h = x
    for i, part in enumerate(parts):
        seg = functools.partial(_chain, blocks[int(part[0]) : int(part[-1]) + 1])
        h = seg(h) if i == skip else checkpoint(seg, h, use_reentrant=False)
    return h


answer = checkpointed_forward
