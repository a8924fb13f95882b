# expect: fail floor-sized segments, remainder added to the last one, which is still checkpointed (11 in 4: 2, 2, 2, 5)
# hint: longer|ceil|at most|size|uneven|differ by
import functools

from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    size = n // segments
    h = x
    for k in range(segments):
        start = k * size
        stop = n if k == segments - 1 else start + size  # the remainder goes to the last segment
        h = checkpoint(functools.partial(_run, blocks[start:stop]), h, use_reentrant=False)
    return h


answer = checkpointed_forward
