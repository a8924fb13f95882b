# expect: pass functional style: itertools.accumulate for the cut points, functools.reduce per segment via partial
# hint:
import functools
import itertools

from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    return functools.reduce(lambda acc, m: m(acc), mods, h)


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    sizes = [n // segments + (i < n % segments) for i in range(segments)]
    cuts = [0, *itertools.accumulate(sizes)]
    segs = [functools.partial(_run, tuple(blocks[a:b])) for a, b in zip(cuts, cuts[1:])]
    return functools.reduce(lambda h, seg: checkpoint(seg, h, use_reentrant=False), segs, x)


answer = checkpointed_forward
