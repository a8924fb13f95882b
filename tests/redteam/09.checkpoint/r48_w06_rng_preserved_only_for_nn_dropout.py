# expect: fail preserve_rng_state turned off unless an nn.Dropout module is found: blocks drawing randomness otherwise (F.dropout, Dropout2d, AlphaDropout) recompute other draws
# hint: random|rng|dropout|preserve|draw|recomput

import functools

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def _draws_random(seg):
    return any(isinstance(m, nn.Dropout) and m.training and m.p > 0 for b in seg for m in b.modules())


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = blocks[int(part[0]) : int(part[-1]) + 1]
        # saving and restoring the RNG state costs time: only where a dropout needs it
        h = checkpoint(
            functools.partial(_run, seg), h, use_reentrant=False, preserve_rng_state=_draws_random(seg)
        )
    return h

answer = checkpointed_forward
