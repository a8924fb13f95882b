# expect: pass (written as wrong, judged right: the blocks come in one mode, and in eval mode no dropout draws random numbers, so not keeping the random state there changes nothing) passes preserve_rng_state=blocks.training, reasoning that blocks in eval mode draw no random numbers: it tells checkpoint not to restore the RNG whenever the ModuleList's own flag is off, so a block that still draws random numbers (in train mode itself, or random outside dropout) recomputes with other ones
# hint: 
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        if len(part) == 0:
            continue
        start, stop = int(part[0]), int(part[-1]) + 1
        h = checkpoint(
            functools.partial(_run, blocks[start:stop]),
            h,
            use_reentrant=False,
            preserve_rng_state=blocks.training,  # in eval mode nothing random: skip saving the RNG
        )
    return h
