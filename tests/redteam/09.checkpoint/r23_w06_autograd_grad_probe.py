# expect: fail a sanity check runs torch.autograd.grad on the output before returning (backward by another name, which the prompt forbids): every checkpointed segment is recomputed once more during the forward call
# hint: backward|autograd\.grad|grad\(|recomput|twice|do not call
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
    # make sure the checkpointed graph still reaches the parameters (no .grad is touched)
    params = [p for p in blocks.parameters() if p.requires_grad]
    grads = torch.autograd.grad(h.sum(), params, retain_graph=True, allow_unused=True)
    assert all(g is not None for g in grads), "a segment lost its graph"
    return h
