# expect: pass sizes computed by hand for torch.split, a generator of losses, reduce for the sum
# hint:
import functools
import operator

import torch


def _sizes(rows, count):
    count = min(count, rows)
    base, extra = divmod(rows, count)
    return [base + (j < extra) for j in range(count)]


def _forwards(stage1, stage2, x, y, loss_fn, sizes):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    for xb, yb in zip(torch.split(x, sizes), torch.split(y, sizes)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        yield loss_fn(out, yb.to(dev2)) * (xb.size(0) / x.size(0))


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    losses = list(_forwards(stage1, stage2, x, y, loss_fn, _sizes(len(x), n_micro)))
    torch.autograd.backward(losses)
    return functools.reduce(operator.add, (loss.detach() for loss in losses))


answer = pipeline_step
