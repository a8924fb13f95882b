# expect: pass a general step bound with functools.partial (split function as a keyword), tensor_split with explicit min, one float() read at the very end
# hint:
import functools

import torch


def _gpipe(stage1, stage2, x, y, loss_fn, n_micro, *, split):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    count = min(n_micro, len(x))
    xs, ys = split(x, count), split(y, count)
    total = None
    for xb, yb in zip(xs, ys, strict=True):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        part = loss_fn(out, yb.to(dev2)) * (xb.shape[0] / x.shape[0])
        total = part if total is None else total + part
    total.backward()
    return float(total.detach())  # the one host read, after every forward and the backward


pipeline_step = functools.partial(_gpipe, split=torch.tensor_split)
answer = pipeline_step
