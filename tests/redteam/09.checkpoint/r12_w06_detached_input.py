# expect: fail detaches the input before the first segment, so no gradient flows back to x
# hint: detach|input'?s? grad|grad\w* (of|for|to) (the )?input|x\.grad|no grad\w* .{0,20}(input|x\b)|graph .{0,20}(cut|broken)
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x.detach()  # the checkpoint keeps this input: keep it off the caller's graph
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        start, end = int(part[0]), int(part[-1]) + 1
        h = checkpoint(functools.partial(_run, blocks[start:end]), h, use_reentrant=False)
    return h
