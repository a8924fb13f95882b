# expect: fail forces the blocks into train mode (to make sure dropout is "handled" by the checkpoint), changing blocks the caller put in eval mode
# hint: eval|train|mode|dropout
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _chain(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    blocks.train()
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_chain, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h


answer = checkpointed_forward
