# expect: fail runs stage 1 once on the whole batch and splits its activations afterwards: stage 1 never sees micro-batches
# hint: micro|stage 1|whole|split|call
import math
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    h = stage1(x.to(d1))
    total = None
    for hb, yb in zip(micro_batches(h, n_micro), micro_batches(y, n_micro)):
        part = loss_fn(stage2(hb.to(d2)), yb.to(d2)) * (len(hb) / len(x))
        total = part if total is None else total + part
    total.backward()
    return total.detach()
