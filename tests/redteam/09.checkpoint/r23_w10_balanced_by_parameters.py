# expect: fail segments balanced by parameter count rather than by number of blocks: identical blocks give tensor_split's sizes, but blocks of different sizes give segments longer than ceil(n / segments) and sizes differing by more than one
# hint: ceil|longer|number of blocks|parameter|balanc|size|differ
import functools

from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    # each segment gets about the same number of parameters: the same recompute cost
    sizes = [sum(p.numel() for p in b.parameters()) for b in blocks]
    total, bounds, acc = sum(sizes), [0], 0
    for i, size in enumerate(sizes):
        acc += size
        left = len(blocks) - i - 1
        need = segments - len(bounds)  # cuts still to make
        if need > 0 and (acc >= total * len(bounds) / segments or left == need):
            bounds.append(i + 1)
    bounds.append(len(blocks))
    h = x
    for lo, hi in zip(bounds, bounds[1:]):
        h = checkpoint(functools.partial(_run, blocks[lo:hi]), h, use_reentrant=False)
    return h
