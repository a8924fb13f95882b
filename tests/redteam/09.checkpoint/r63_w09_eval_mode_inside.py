# expect: fail switches the blocks to eval mode inside each segment (to make the recomputation deterministic), restoring train mode after: no dropout at all
# hint: eval|train(ing)?.{0,10}mode|\.training|dropout|mode
# Wrong: forward and recomputation agree with each other, and the blocks' modes are back when
# it returns, but the training-mode output should have dropout: output and gradients differ.
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _plain_eval(mods, h):
    modes = [m.training for m in mods]
    for m in mods:
        m.eval()  # dropout off: nothing random to recompute
    try:
        for m in mods:
            h = m(h)
    finally:
        for m, mode in zip(mods, modes):
            m.train(mode)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_plain_eval, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h
