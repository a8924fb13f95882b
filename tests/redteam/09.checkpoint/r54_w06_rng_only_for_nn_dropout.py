# expect: fail preserves the RNG state only when it sees an nn.Dropout in training mode; blocks drawing random numbers otherwise (F.dropout, Dropout1d, AlphaDropout) recompute with other draws
# hint: rng|random|dropout|preserve|draw|mask
import functools

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def _draws(mods):
    """Only a training Dropout draws random numbers; skip the RNG bookkeeping otherwise."""
    return any(isinstance(m, nn.Dropout) and m.training for mod in mods for m in mod.modules())


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        mods = [blocks[int(k)] for k in part]
        h = checkpoint(
            functools.partial(_run, mods), h, use_reentrant=False, preserve_rng_state=_draws(mods)
        )
    return h


answer = checkpointed_forward
