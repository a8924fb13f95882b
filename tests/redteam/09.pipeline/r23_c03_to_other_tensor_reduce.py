# expect: pass devices taken as a parameter tensor each and moves written x.to(other_tensor); split sizes by divmod and Tensor.split; weights from numel ratios; the total folded with functools.reduce(operator.add)
# hint: 
import functools
import operator

import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    p1 = next(stage1.parameters())  # .to(p1) moves to its device (and dtype, which matches)
    p2 = next(stage2.parameters())
    m = min(n_micro, len(x))
    q, r = divmod(len(x), m)
    sizes = [q + 1] * r + [q] * (m - r)  # the first r micro-batches one row longer
    xs, ys = x.split(sizes), y.split(sizes)

    def weighted(xb, yb):
        h = stage1(xb.to(p1)).to(p2)
        return loss_fn(stage2(h), yb.to(p2.device)) * (xb.numel() / x.numel())

    total = functools.reduce(operator.add, map(weighted, xs, ys))
    total.backward()
    return total.detach()
