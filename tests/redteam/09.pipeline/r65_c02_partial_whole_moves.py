# expect: pass
# hint:
# Right: functools.partial of a general helper; it moves x and y whole to the stages' devices
# and splits there with micro_batches (views on the device), sums weighted losses one by one.
import functools

import torch
from d2lgpu.pipeline import micro_batches


def _gpipe(stage1, stage2, x, y, loss_fn, n_micro, *, split):
    first = next(stage1.parameters()).device
    last = next(stage2.parameters()).device
    xs = split(x.to(first), n_micro)
    ys = split(y.to(last), n_micro)
    total = None
    for xb, yb in zip(xs, ys, strict=True):
        out = stage2(stage1(xb).to(last))
        part = loss_fn(out, yb) * (xb.shape[0] / x.shape[0])
        total = part if total is None else total + part
    total.backward()
    return total.detach()


answer = functools.partial(_gpipe, split=micro_batches)
