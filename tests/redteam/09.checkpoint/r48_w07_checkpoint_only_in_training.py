# expect: fail checkpoints only when the blocks are in training mode ("if self.training and gradient_checkpointing"): blocks in eval mode still need gradients and keep everything
# hint: eval|train|saved|bytes|memory|checkpoint|recomput

import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    if not blocks.training:  # inference: nothing to save memory for
        return _run(blocks, x)
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1]), h, use_reentrant=False)
    return h

answer = checkpointed_forward
