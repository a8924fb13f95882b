# expect: fail use_reentrant=True, made to give the parameters gradients by a clone of the input that requires grad: the prompt asks for use_reentrant=False
# hint: reentrant
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    if not h.requires_grad:
        # the well-known fix for "no gradient for the first segment's parameters"
        h = h.detach().clone().requires_grad_()
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_run, [blocks[int(k)] for k in part])
        h = checkpoint(seg, h, use_reentrant=True, preserve_rng_state=True)
    return h


answer = checkpointed_forward
