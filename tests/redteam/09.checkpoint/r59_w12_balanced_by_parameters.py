# expect: fail cuts the segments where the running parameter count crosses k/segments of the total ("balanced" segments), so with blocks of different sizes the segments are not counted in blocks
# hint: param|balanc|counted in blocks|block count|size|segment.{0,40}(long|blocks)|ceil|at most
import functools

from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def _bounds(blocks, s):
    sizes = [sum(p.numel() for p in b.parameters()) for b in blocks]
    n, total = len(sizes), sum(sizes)
    if total == 0:
        sizes, total = [1] * n, n
    bounds, running = [0], 0
    for i, size in enumerate(sizes):
        running += size
        k = len(bounds)  # the cut we are looking for
        # cut after block i once this segment holds its share, leaving a block for each later one
        if k < s and running >= k * total / s and n - (i + 1) >= s - k:
            bounds.append(i + 1)
    while len(bounds) < s:  # too few cuts: split the end into single blocks
        bounds.append(bounds[-1] + 1)
    return bounds + [n]


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    if n == 0:
        return x
    b = _bounds(blocks, min(segments, n))
    h = x
    for start, end in zip(b[:-1], b[1:]):
        h = checkpoint(functools.partial(_run, blocks[start:end]), h, use_reentrant=False)
    return h


answer = checkpointed_forward
