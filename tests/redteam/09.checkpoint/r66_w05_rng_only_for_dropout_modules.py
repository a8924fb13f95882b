# expect: fail keeps the RNG state only when an nn.Dropout module is active, so blocks drawing random numbers otherwise recompute with other numbers
# hint: random|rng|preserve_rng_state|dropout|same (numbers|masks?)|draw
# Wrong: preserve_rng_state is turned off unless an nn.Dropout module is in training mode, to
# save checkpoint's bookkeeping; a block that draws with F.dropout or torch.randn_like
# recomputes with different numbers, so its gradients differ from the forward's.
import functools

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def _run(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def _draws_random(seg_blocks):
    return any(
        isinstance(m, nn.modules.dropout._DropoutNd) and m.training and m.p > 0
        for block in seg_blocks
        for m in block.modules()
    )


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg_blocks = blocks[int(part[0]) : int(part[-1]) + 1]
        h = checkpoint(
            functools.partial(_run, seg_blocks),
            h,
            use_reentrant=False,
            preserve_rng_state=_draws_random(seg_blocks),  # skip the RNG bookkeeping when unused
        )
    return h
