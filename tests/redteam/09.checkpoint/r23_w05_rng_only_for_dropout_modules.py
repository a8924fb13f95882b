# expect: fail preserve_rng_state is turned off when no nn.Dropout module is found, to skip the RNG bookkeeping: blocks that draw random numbers otherwise (F.dropout in forward, Dropout1d/AlphaDropout, which are not nn.Dropout) recompute with other masks and get wrong gradients
# hint: rng|random|dropout|preserve_rng_state|mask|seed
import functools

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    # saving and restoring the RNG state costs time; only dropout needs it
    random = any(isinstance(m, nn.Dropout) for m in blocks.modules())
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(
            functools.partial(_run, part), h, use_reentrant=False, preserve_rng_state=random
        )
    return h
