# expect: fail gradients weighted by each micro-batch's share, but returns the plain mean of the micro-batch losses (wrong when the split is uneven)
# hint: loss|return|weight|share|mean
import math
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    weighted, plain = [], []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2))
        weighted.append(loss * (len(xb) / len(x)))
        plain.append(loss.detach())
    sum(weighted).backward()
    return torch.stack(plain).mean()
