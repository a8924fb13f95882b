# expect: fail adds a "stabilising" layer_norm(out) * 0 + out after each segment: values unchanged, but layer_norm keeps every segment output for backward, beyond the segments' inputs
# hint: saved|bytes|keep|activation|memory
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _chain(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_chain, blocks[int(part[0]) : int(part[-1]) + 1])
        out = checkpoint(seg, h, use_reentrant=False)
        h = torch.nn.functional.layer_norm(out, out.shape[-1:]) * 0 + out  # "stabilised" residual
    return h


answer = checkpointed_forward
