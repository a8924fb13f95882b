# expect: fail each segment's function appends every block's output to a list that the checkpoint keeps (through the partial) until backward, so all blocks' activations stay alive
# hint: alive|at once|(kept|keeps|keep|held|holds|retain\w*) .{0,40}(activation|output|intermediate|tensor)|reference|more than one segment
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, trace, h):
    for block in blocks:
        h = block(h)
        trace.append(h)  # each block's output, to inspect its shape and values
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        start, end = int(part[0]), int(part[-1]) + 1
        trace = []
        h = checkpoint(functools.partial(_run, blocks[start:end], trace), h, use_reentrant=False)
    return h
