# expect: pass
# hint:
# Right: sizes from divmod (larger first, as tensor_split), bounds from itertools.accumulate;
# the lambda binds its slice through a default argument, so backward reruns the right blocks.
import itertools

from torch.utils.checkpoint import checkpoint


def answer(blocks, x, segments):
    n = len(blocks)
    q, r = divmod(n, segments)
    sizes = [q + 1 if k < r else q for k in range(segments)]
    ends = list(itertools.accumulate(sizes))
    starts = [0] + ends[:-1]
    h = x
    for start, end in zip(starts, ends):
        mods = [blocks[i] for i in range(start, end)]
        h = checkpoint(lambda t, mods=mods: _apply(mods, t), h, use_reentrant=False)
    return h


def _apply(mods, t):
    for m in mods:
        t = m(t)
    return t
