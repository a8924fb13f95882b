# expect: fail keeps every call's output (and with it its graph) alive in a module-level list after the function returns
# hint: alive|reference|kept|keeps|held|retain\w*|leak|between calls|after .{0,20}returns|global|module.level
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint

_outputs = []  # the outputs of the calls so far, to look at later


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        start, end = int(part[0]), int(part[-1]) + 1
        h = checkpoint(functools.partial(_run, blocks[start:end]), h, use_reentrant=False)
    _outputs.append(h)
    return h
