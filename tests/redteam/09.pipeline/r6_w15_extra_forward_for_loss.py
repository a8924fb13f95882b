# expect: fail returns the loss of an extra forward of the whole batch under no_grad (both stages run once more per step: a third more work)
# hint: extra|forward|call|once|twice|whole|micro
import math
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    total = None
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        part = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        total = part if total is None else total + part
    total.backward()
    with torch.no_grad():
        return loss_fn(stage2(stage1(x.to(d1)).to(d2)), y.to(d2))
