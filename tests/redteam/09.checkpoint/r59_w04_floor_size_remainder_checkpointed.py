# expect: fail segments of len(blocks) // segments blocks with the remainder added to the last one, which is still checkpointed (11 in 4: 2, 2, 2, 5 checkpointed; 10 in 4: 2, 2, 2, 4)
# hint: segment.{0,40}(long|size|uneven|remainder|ceil)|remainder|ceil|longer than|tensor_split|at most
import functools

from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    if n == 0:
        return x
    s = min(segments, n)
    size = n // s
    bounds = [k * size for k in range(s)] + [n]
    h = x
    for start, end in zip(bounds[:-1], bounds[1:]):
        segment = functools.partial(_run, blocks[start:end])
        h = checkpoint(segment, h, use_reentrant=False)
    return h


answer = checkpointed_forward
