# expect: fail slices blocks[part[0]:part[-1]] (end exclusive): each segment skips its last block, and a one-block segment is empty
# hint: skip|missing|never (ran|run|called)|not (run|called)|each block|every block|off.by.one|slice|last block|ran 0|once
# Wrong: the inclusive index part[-1] used as an exclusive end; the output misses one block per segment.
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _plain(mods, h):
    for m in mods:
        h = m(h)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_plain, blocks[int(part[0]) : int(part[-1])])
        h = checkpoint(seg, h, use_reentrant=False)
    return h
