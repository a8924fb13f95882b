# expect: pass lambdas bound by default arguments, sizes in steps of ceil(n/S) when that gives S pieces, else balanced, functools.reduce
# hint:
# name: checkpointed_forward
import functools
import math

from torch.utils.checkpoint import checkpoint


def _cuts(n, segments):
    step = math.ceil(n / segments)
    starts = list(range(0, n, step))
    if len(starts) == segments:  # 10 in 4: 3, 3, 3, 1
        return [(a, min(a + step, n)) for a in starts]
    q, r = divmod(n, segments)  # otherwise sizes that differ by at most one
    out, a = [], 0
    for i in range(segments):
        b = a + q + (i < r)
        if b > a:
            out.append((a, b))
        a = b
    return out


def checkpointed_forward(blocks, x, segments):
    fns = [
        (lambda h, mods=tuple(blocks[a:b]): functools.reduce(lambda t, m: m(t), mods, h))
        for a, b in _cuts(len(blocks), segments)
    ]
    last = len(fns) - 1
    return functools.reduce(
        lambda h, item: item[1](h) if item[0] == last else checkpoint(item[1], h, use_reentrant=False),
        enumerate(fns),
        x,
    )
