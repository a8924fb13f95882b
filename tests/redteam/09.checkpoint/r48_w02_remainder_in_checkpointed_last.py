# expect: fail checkpoint_sequential's split (remainder to the last segment) but with the last segment checkpointed too: a checkpointed segment longer than ceil(n/s)
# hint: long|ceil|size|segment|blocks

import functools

from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    size = len(blocks) // segments  # as checkpoint_sequential does: 11 in 4 -> 2, 2, 2, 5
    h = x
    for i in range(segments):
        start = i * size
        stop = len(blocks) if i == segments - 1 else start + size
        h = checkpoint(functools.partial(_run, blocks[start:stop]), h, use_reentrant=False)
    return h

answer = checkpointed_forward
