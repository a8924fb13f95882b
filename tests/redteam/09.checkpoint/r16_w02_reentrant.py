# expect: fail use_reentrant=True, with the input detached and made to require grad to silence its error: the caller's x gets no gradient
# hint: use_reentrant|reentrant|requires_grad|detach|input's gradient|gradient of x
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    # the reentrant checkpoint wants an input that requires grad
    h = x.detach().requires_grad_()
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=True)
    return h
