# expect: pass functools.partial over a general step; whole batch moved once, split on the devices, losses summed as loss*rows then divided by the batch size
# hint:
import functools

import torch


def _gpipe(stage1, stage2, x, y, loss_fn, n_micro, *, split):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    xs = split(x.to(d1), min(n_micro, len(x)))  # one copy of the batch, then views
    ts = split(y.to(d2), len(xs))
    weighted = []
    for xb, tb in zip(xs, ts):
        out = stage2(stage1(xb).to(d2))
        weighted.append(loss_fn(out, tb) * len(xb))
    loss = sum(weighted[1:], weighted[0]) / len(x)
    loss.backward()
    return loss.detach()


pipeline_step = functools.partial(_gpipe, split=torch.tensor_split)
answer = pipeline_step
