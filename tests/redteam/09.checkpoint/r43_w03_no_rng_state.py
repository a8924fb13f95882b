# expect: fail passes preserve_rng_state=False to save the bookkeeping, so with dropout the recomputation draws other masks than the forward did and the gradients no longer match
# hint: rng|random|dropout|preserve
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
        h = checkpoint(segment, h, use_reentrant=False, preserve_rng_state=False)
    return h
