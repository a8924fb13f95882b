# expect: fail passes preserve_rng_state=False, so the recomputation draws other dropout masks than the forward did
# hint: preserve_rng_state|rng|random (number|state)|dropout|mask|seed
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
        start, end = int(part[0]), int(part[-1]) + 1
        h = checkpoint(
            functools.partial(_run, blocks[start:end]),
            h,
            use_reentrant=False,
            preserve_rng_state=False,  # "faster": no RNG state to save and restore
        )
    return h
