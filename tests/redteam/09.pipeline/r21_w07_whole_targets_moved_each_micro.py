# expect: fail y.to(d2) of the whole target batch inside the loop, then sliced: M copies of all the targets to stage 2's device instead of one copy of each micro-batch
# hint: copy|whole|targets|each micro|repeated|y\.to|transfer
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    idx = torch.tensor_split(torch.arange(len(x)), min(n_micro, len(x)))
    total = None
    for rows in idx:
        lo, hi = int(rows[0]), int(rows[-1]) + 1
        out = stage2(stage1(x[lo:hi].to(d1)).to(d2))
        part = loss_fn(out, y.to(d2)[lo:hi]) * ((hi - lo) / len(x))
        total = part if total is None else total + part
    total.backward()
    return total.detach()
