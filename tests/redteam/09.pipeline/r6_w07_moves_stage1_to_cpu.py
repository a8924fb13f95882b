# expect: fail moves stage 1 to the batch's device (`stage1.to(x.device)`, the CPU) instead of moving the micro-batches to stage 1's device: the model's placement changes
# hint: device|stage 1|move|cpu|placement|param
import math
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    stage1.to(x.device)
    d2 = next(stage2.parameters()).device
    total = None
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb).to(d2))
        part = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        total = part if total is None else total + part
    total.backward()
    return total.detach()
