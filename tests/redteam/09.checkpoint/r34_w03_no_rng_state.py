# expect: fail preserve_rng_state=False to save time: dropout in the recomputation draws other masks
# hint: rng|random|preserve_rng_state|dropout
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _chain(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_chain, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False, preserve_rng_state=False)
    return h


answer = checkpointed_forward
