# expect: fail each segment is bound to itertools.islice(blocks, start, stop), a one-shot iterator: the forward consumes it, so backward's recomputation iterates nothing, recomputes no block, and autograd finds the saved tensors missing (backward raises, or no gradient reaches the blocks); the output is right
# hint: islice|iterator|exhaust|consum|one-?shot|generator|recomput.{0,40}(nothing|no block|empty|differ|fewer|missing)|(number|count) of (saved )?tensors|backward (raised|failed|error)
# name: checkpointed_forward
import functools
import itertools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        if len(part) == 0:
            continue
        start, stop = int(part[0]), int(part[-1]) + 1
        # no list copy of the modules: just walk that stretch of the ModuleList
        seg = functools.partial(_run, itertools.islice(blocks, start, stop))
        h = checkpoint(seg, h, use_reentrant=False)
    return h
