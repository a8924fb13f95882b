# expect: fail moves the targets to stage 1's device (where the micro-batch goes) instead of stage 2's, where loss_fn runs
# hint: target|device|stage 2|loss
import math
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    total = None
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        part = loss_fn(out, yb.to(d1)) * (len(xb) / len(x))
        total = part if total is None else total + part
    total.backward()
    return total.detach()
