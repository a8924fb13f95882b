# expect: pass explicit row bounds computed with divmod, narrow() slices, functools.reduce to sum
# hint:
# name: pipeline_step
import functools
import operator

import torch


def _bounds(n, m):
    q, r = divmod(n, m)
    start = 0
    for i in range(m):
        size = q + (1 if i < r else 0)
        yield start, size
        start += size


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    p1, p2 = next(stage1.parameters()), next(stage2.parameters())
    n = x.size(0)
    m = min(n_micro, n)
    terms = []
    for start, size in _bounds(n, m):
        xb = x.narrow(0, start, size).to(p1.device)
        yb = y.narrow(0, start, size).to(p2.device)
        z = stage2(stage1(xb).to(p2.device))
        terms.append(loss_fn(z, yb).mul(size / n))
    loss = functools.reduce(operator.add, terms)
    loss.backward()
    return loss.detach()
