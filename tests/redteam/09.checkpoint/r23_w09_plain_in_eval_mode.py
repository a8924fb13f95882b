# expect: fail checkpointing is skipped when the blocks are in eval mode ("no training, nothing to save"): with gradients enabled in eval mode (frozen dropout, fine-tuning, input gradients) the whole stack is kept for backward, no segment is checkpointed
# hint: eval|training|mode|not checkpoint|plain|grad enabled|is_grad_enabled
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    if not blocks.training:
        return _run(blocks, x)  # inference: no backward will come, nothing to trade
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
    return h
