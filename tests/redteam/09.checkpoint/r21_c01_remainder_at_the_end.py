# expect: pass sizes from divmod with the extra blocks on the LAST segments (10 in 3: 3, 3, 4), all checkpointed, bounds from itertools.accumulate
# hint: 
import functools
import itertools

from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    base, extra = divmod(len(blocks), segments)
    sizes = [base + (s >= segments - extra) for s in range(segments)]
    bounds = [0, *itertools.accumulate(sizes)]
    h = x
    for lo, hi in zip(bounds, bounds[1:]):
        h = checkpoint(functools.partial(_run, blocks[lo:hi]), h, use_reentrant=False)
    return h
