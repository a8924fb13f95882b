# expect: fail torch.split with size len(x) // M: 10 rows in 4 give 5 micro-batches of 2, more than asked
# hint: micro|split|number|count|asked|tensor_split
import math
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    size = max(1, len(x) // min(n_micro, len(x)))
    total = None
    for xb, yb in zip(torch.split(x, size), torch.split(y, size)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        part = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        total = part if total is None else total + part
    total.backward()
    return total.detach()
