# expect: pass loss_fn(out, target, reduction="sum") / len(x): every loss_fn the prompt names is a mean over its rows, so the sum over the rows divided by the batch's rows is the whole batch's loss (as r6_c05); relabelled right
# hint: 
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    total = 0
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        # summed per micro-batch, divided once by the batch's rows: no weights to get wrong
        total = total + loss_fn(out, yb.to(d2), reduction="sum")
    total = total / len(x)
    total.backward()
    return total.detach()
