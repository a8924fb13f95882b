# expect: fail preserve_rng_state=False: backward's recomputation draws other dropout masks than the forward did
# hint: rng|random|dropout|preserve|mask
# Wrong: "saves the RNG bookkeeping". Without dropout (or in eval mode) it is exact; with
# dropout the recomputed activations differ from the forward's, so the gradients are wrong.
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _plain(mods, h):
    for m in mods:
        h = m(h)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_plain, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False, preserve_rng_state=False)
    return h
