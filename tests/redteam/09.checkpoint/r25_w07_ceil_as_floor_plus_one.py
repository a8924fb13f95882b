# expect: fail computes the segment length as len(blocks) // segments + 1 (a ceil that is one too many when segments divides the blocks): 16 blocks in 4 become 5, 5, 5, 1, segments longer than ceil(len / segments)
# hint: ceil|longer|too long|at most|segment (size|length)|\+ ?1|5, 5, 5, 1|blocks per segment
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    size = len(blocks) // segments + 1  # ceil(len / segments)
    h = x
    for start in range(0, len(blocks), size):
        h = checkpoint(functools.partial(_run, blocks[start : start + size]), h, use_reentrant=False)
    return h
