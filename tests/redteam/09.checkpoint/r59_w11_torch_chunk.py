# expect: fail splits the blocks with torch.chunk, which can give fewer segments than asked (9 blocks in 4: 3, 3, 3, three segments)
# hint: chunk|fewer|number of segments|segments? count|exactly|\bthree\b|instead of
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    if n == 0:
        return x
    h = x
    for part in torch.chunk(torch.arange(n), min(segments, n)):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
    return h


answer = checkpointed_forward
