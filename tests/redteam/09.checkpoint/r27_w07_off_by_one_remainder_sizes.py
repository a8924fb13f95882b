# expect: fail sizes len // segments + (i <= remainder) instead of (i < remainder): one block too many goes to the first remainder + 1 segments, so the last segment is cut short; when the blocks divide evenly (16 in 4: 5, 4, 4, 3) the first segment is longer than ceil(len(blocks) / segments); some uneven cases (10 in 3: 4, 4, 2) still pass
# hint: longer than|too long|at most|ceil|more than \d+ blocks|size|blocks? (in|per) (one |a )?segment|uneven|balanced|differ
# name: checkpointed_forward
import functools

from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    q, r = divmod(n, segments)
    sizes = [q + (i <= r) for i in range(segments)]  # the first ones take the remainder
    h, start = x, 0
    for size in sizes:
        stop = min(start + size, n)
        if stop > start:
            h = checkpoint(functools.partial(_run, blocks[start:stop]), h, use_reentrant=False)
        start = stop
    return h
