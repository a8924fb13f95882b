# expect: fail ignores n_micro: one micro-batch per row (x.split(1)), len(x) tiny stage calls instead of min(n_micro, len(x)) micro-batches
# hint: n_micro|micro.batch|number|count|one row|split\(1\)|min\(n_micro
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    # the finest pipeline: every row its own micro-batch, the smallest bubble
    losses = [
        loss_fn(stage2(stage1(xr.to(d1)).to(d2)), yr.to(d2)) / len(x)
        for xr, yr in zip(x.split(1), y.split(1))
    ]
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
