# expect: fail selective checkpointing (context_fn keeping the matmuls' outputs) keeps every segment's products, far more than the segments' inputs
# hint: selective|context_fn|policy|MUST_SAVE|product|saved|bytes|kept|keep
import functools

import torch
from torch.utils.checkpoint import (
    CheckpointPolicy,
    checkpoint,
    create_selective_checkpoint_contexts,
)

_products = {torch.ops.aten.mm.default, torch.ops.aten.addmm.default}


def _policy(ctx, op, *args, **kwargs):
    # chapter 9.6: keep the products' outputs, recompute only the cheap pointwise work
    return CheckpointPolicy.MUST_SAVE if op in _products else CheckpointPolicy.PREFER_RECOMPUTE


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_run, [blocks[int(k)] for k in part])
        h = checkpoint(
            seg,
            h,
            use_reentrant=False,
            context_fn=functools.partial(create_selective_checkpoint_contexts, _policy),
        )
    return h


answer = checkpointed_forward
