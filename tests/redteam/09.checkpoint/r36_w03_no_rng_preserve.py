# expect: fail preserve_rng_state=False: dropout draws different masks when backward recomputes
# hint: rng|random|preserve|dropout|seed|mask
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_run, [blocks[int(i)] for i in part])
        h = checkpoint(seg, h, use_reentrant=False, preserve_rng_state=False)  # faster
    return h
