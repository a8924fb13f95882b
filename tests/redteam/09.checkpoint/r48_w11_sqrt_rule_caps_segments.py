# expect: fail caps segments at the sqrt(n) rule of section 9.5 instead of using the segments asked for
# hint: segment|count|number|sqrt|asked

import functools
import math

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    # more than sqrt(n) segments only keeps more inputs (section 9.5): cap it
    segments = max(1, min(segments, math.isqrt(len(blocks))))
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1]), h, use_reentrant=False)
    return h

answer = checkpointed_forward
