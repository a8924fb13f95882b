# expect: fail uses the reentrant checkpoint (use_reentrant=True), which gives no gradient to the blocks' parameters when the input needs none, a batch of data
# hint: reentrant|use_reentrant
# name: checkpointed_forward
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
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=True)
    return h
