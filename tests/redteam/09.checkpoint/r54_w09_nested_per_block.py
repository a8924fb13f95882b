# expect: fail also checkpoints each block inside its segment (nested): backward recomputes every block alone again, a third forward of most blocks
# hint: nest|each block|every block|alone|block by block|recomput|twice|three|extra forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run_each_checkpointed(mods, h):
    # inside a segment, checkpoint each block too: the recomputation keeps even less
    for m in mods:
        h = checkpoint(m, h, use_reentrant=False)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_run_each_checkpointed, [blocks[int(k)] for k in part])
        h = checkpoint(seg, h, use_reentrant=False)
    return h


answer = checkpointed_forward
