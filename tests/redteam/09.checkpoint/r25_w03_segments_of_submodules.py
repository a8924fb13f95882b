# expect: fail flattens the blocks into their child modules and cuts the segments there: segments are counted in layers, not blocks, the blocks' own forward (a residual addition, its hooks) never runs, and a block is split across two segments
# hint: child|children|sub-?module|layers?|flatten|block'?s (own )?forward|counted in blocks|not (in )?blocks|residual
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    layers = []
    for block in blocks:  # finer pieces cut more evenly
        children = list(block.children())
        layers.extend(children if children else [block])
    h = x
    for part in torch.tensor_split(torch.arange(len(layers)), segments):
        if len(part) == 0:
            continue
        start, stop = int(part[0]), int(part[-1]) + 1
        h = checkpoint(functools.partial(_run, layers[start:stop]), h, use_reentrant=False)
    return h
