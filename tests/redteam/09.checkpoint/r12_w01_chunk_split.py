# expect: fail cuts the blocks with torch.chunk, which gives fewer than `segments` segments when the sizes round up (9 blocks in 4: 3, 3, 3)
# hint: chunk|fewer (than )?.{0,20}segments|(expected|exactly|not) .{0,30}segments|number of segments|segments? (count|recomputed)|3, 3, 3|three segments
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.chunk(torch.arange(len(blocks)), segments):
        start, end = int(part[0]), int(part[-1]) + 1
        h = checkpoint(functools.partial(_run, blocks[start:end]), h, use_reentrant=False)
    return h
