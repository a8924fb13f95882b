# expect: fail runs the FIRST segment without a checkpoint instead of the last: its activations stay alive through all of backward, beside each recomputed segment's
# hint: first segment|last segment|unchecked|without (a )?checkpoint|alive|at once|two segments|peak|activations.{0,30}(kept|held|live)
# Wrong: "its input is the data, which needs no gradient, so checkpointing it gains nothing".
# Bytes kept and the recompute count look fine (S - 1 segments); the peak in backward is two segments' activations.
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _plain(mods, h):
    for m in mods:
        h = m(h)
    return h


def answer(blocks, x, segments):
    h = x
    for k, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        seg = functools.partial(_plain, blocks[int(part[0]) : int(part[-1]) + 1])
        if k == 0 and segments > 1:
            h = seg(h)  # the data needs no gradient: no point checkpointing this one
        else:
            h = checkpoint(seg, h, use_reentrant=False)
    return h
