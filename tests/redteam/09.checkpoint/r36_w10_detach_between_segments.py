# expect: fail detaches between segments, so earlier segments (and the input) get no gradient
# hint: detach|graph|cut|no grad|requires_grad|earlier segment
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_run, [blocks[int(i)] for i in part])
        # each segment starts from a leaf, as between pipeline stages
        h = checkpoint(seg, h.detach().requires_grad_(), use_reentrant=False)
    return h
