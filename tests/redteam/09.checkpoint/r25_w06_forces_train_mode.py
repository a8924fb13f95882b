# expect: fail calls blocks.train() because checkpointing is for training: blocks the caller put in eval mode then apply dropout, so the output differs from their plain forward, and they are left in train mode
# hint: train|eval|mode|dropout|training
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    blocks.train()  # checkpointing only matters with a backward pass, i.e. in training
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        if len(part) == 0:
            continue
        start, stop = int(part[0]), int(part[-1]) + 1
        h = checkpoint(functools.partial(_run, blocks[start:stop]), h, use_reentrant=False)
    return h
