# expect: fail nests a per-block checkpoint inside each segment's checkpoint: right values, but backward reruns each block twice (three forwards in all)
# hint: recomput|twice|forward|block|segment|extra|once

import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:  # each block checkpointed too, "for extra savings"
        h = checkpoint(block, h, use_reentrant=False)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1]), h, use_reentrant=False)
    return h

answer = checkpointed_forward
