# expect: fail a selective policy keeps every matrix product's output: far more than the segments' inputs, hidden from saved_tensors_hooks
# hint: selective|context_fn|policy|MUST_SAVE|products|mm|respect_saved_tensors_hooks|kept|saved
import functools

import torch
from torch.utils.checkpoint import (
    CheckpointPolicy,
    checkpoint,
    create_selective_checkpoint_contexts,
)

_PRODUCTS = {torch.ops.aten.mm.default, torch.ops.aten.addmm.default}


def _keep_products(ctx, op, *args, **kwargs):
    return CheckpointPolicy.MUST_SAVE if op in _PRODUCTS else CheckpointPolicy.PREFER_RECOMPUTE


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    context = functools.partial(create_selective_checkpoint_contexts, _keep_products)
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False, context_fn=context)
    return h
