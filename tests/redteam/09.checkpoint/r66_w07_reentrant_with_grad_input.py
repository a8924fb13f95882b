# expect: fail uses the reentrant checkpoint (use_reentrant=True), patched by making the input require grad; the prompt asks for use_reentrant=False
# hint: reentrant|use_reentrant
# Wrong: with an input that requires grad the reentrant implementation gives the parameters
# their gradients under .backward(), so values match; but it is the implementation the prompt
# forbids (and it fails with torch.autograd.grad).
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    # the reentrant checkpoint needs an input that requires grad to reach the parameters
    h = x if x.requires_grad else x.detach().requires_grad_()
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=True)
    return h
