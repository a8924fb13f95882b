# expect: fail selective checkpointing (context_fn saving the matrix products) keeps every segment's products, far more than the segments' inputs
# hint: saved|bytes|keeps?|kept|memory|selective|context_fn|policy|products?|MUST_SAVE
# Wrong: each segment is under checkpoint(use_reentrant=False), but the policy from 9.6 makes
# it keep every addmm/mm output of every segment between forward and backward (and these
# bypass saved_tensors_hooks where respect_saved_tensors_hooks is not passed).
import functools

import torch
from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts

_PRODUCTS = {torch.ops.aten.mm.default, torch.ops.aten.addmm.default}


def _keep_products(ctx, op, *args, **kwargs):
    return CheckpointPolicy.MUST_SAVE if op in _PRODUCTS else CheckpointPolicy.PREFER_RECOMPUTE


def _run(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    context = functools.partial(create_selective_checkpoint_contexts, _keep_products)
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False, context_fn=context)
    return h
