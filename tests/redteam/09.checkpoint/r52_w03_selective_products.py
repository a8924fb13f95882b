# expect: fail selective checkpointing that keeps every segment's matrix products: far more saved than the segments' inputs
# hint: saved|bytes|keep|kept|memory|alive|activations
import functools

import torch
from torch.utils.checkpoint import (
    CheckpointPolicy,
    checkpoint,
    create_selective_checkpoint_contexts,
)

_PRODUCTS = {torch.ops.aten.mm.default, torch.ops.aten.addmm.default}


def _policy(ctx, op, *args, **kwargs):
    return CheckpointPolicy.MUST_SAVE if op in _PRODUCTS else CheckpointPolicy.PREFER_RECOMPUTE


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    # "selective is the modern best practice": keep the products, recompute only the cheap ops
    context = functools.partial(create_selective_checkpoint_contexts, _policy)
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False, context_fn=context)
    return h


answer = checkpointed_forward
