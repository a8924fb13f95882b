# expect: fail the segment functions are cached on the ModuleList itself and reused whatever `segments` is: the same blocks called again with another segment count keep the first call's split (state kept between calls, invisible when every call brings new blocks)
# hint: cache|stale|state|previous call|segments|attribute|reuse
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    # building the partials every call is wasted work: keep them with the blocks
    fns = getattr(blocks, "_ckpt_segments", None)
    if fns is None:
        fns = [
            functools.partial(_run, blocks[int(idx[0]) : int(idx[-1]) + 1])
            for idx in torch.tensor_split(torch.arange(len(blocks)), segments)
        ]
        blocks._ckpt_segments = fns  # a plain list: not registered as submodules
    h = x
    for fn in fns:
        h = checkpoint(fn, h, use_reentrant=False)
    return h
