# expect: fail Tensor.split(segments) cuts pieces OF size `segments`, not `segments` pieces: right only when len(blocks) == segments**2
# hint: number of segments|exactly|segments|pieces|split|size|count
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for part in torch.arange(len(blocks)).split(segments):
        seg = functools.partial(_run, [blocks[int(k)] for k in part])
        h = checkpoint(seg, h, use_reentrant=False)
    return h


answer = checkpointed_forward
