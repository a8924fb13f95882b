# expect: fail splits x with micro_batches but y with torch.chunk: for some sizes the targets do not line up with the micro-batches (or fewer of them)
# hint: target|chunk|split|micro|size|shape|match
import math
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    M = min(n_micro, len(x))
    total = None
    for xb, yb in zip(micro_batches(x, M), torch.chunk(y, M)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        part = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        total = part if total is None else total + part
    total.backward()
    return total.detach()
