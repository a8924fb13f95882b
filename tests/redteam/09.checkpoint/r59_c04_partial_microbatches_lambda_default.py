# expect: pass functools.partial of a general function; segments from d2lgpu.pipeline.micro_batches on the block indices; lambdas that bind their modules through a default argument
# hint:
import functools

import torch
from torch.utils.checkpoint import checkpoint

from d2lgpu.pipeline import micro_batches


def _segmented(blocks, x, segments, *, use_reentrant):
    if len(blocks) == 0:
        return x
    h = x
    for idx in micro_batches(torch.arange(len(blocks)), segments):
        mods = [blocks[i] for i in idx.tolist()]
        h = checkpoint(
            lambda t, mods=mods: functools.reduce(lambda a, m: m(a), mods, t),
            h,
            use_reentrant=use_reentrant,
        )
    return h


answer = functools.partial(_segmented, use_reentrant=False)
