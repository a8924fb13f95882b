# expect: fail selective checkpointing (section 9.6) that saves every matmul's output: more is kept for backward than the segments' inputs plus one segment
# hint: saved|bytes|kept|keep|memory|inputs
import functools
import math
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h


from torch.utils.checkpoint import CheckpointPolicy, create_selective_checkpoint_contexts


def policy(ctx, op, *args, **kwargs):
    if op in (torch.ops.aten.mm.default, torch.ops.aten.addmm.default):
        return CheckpointPolicy.MUST_SAVE
    return CheckpointPolicy.PREFER_RECOMPUTE


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(
            seg, h, use_reentrant=False,
            context_fn=functools.partial(create_selective_checkpoint_contexts, policy),
        )
    return h
