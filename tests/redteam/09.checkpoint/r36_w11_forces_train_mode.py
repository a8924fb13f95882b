# expect: fail puts the blocks in train mode, so blocks the caller left in eval mode run dropout
# hint: train|eval|mode|dropout
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    blocks.train()  # checkpointing is for training
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(_run, [blocks[int(i)] for i in part]), h, use_reentrant=False)
    return h
