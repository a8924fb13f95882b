# expect: fail returns the list of weighted micro-batch losses instead of the batch's loss
# hint: return|loss|tensor|float|list|type
import math
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    parts = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        parts.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    sum(parts).backward()
    return [p.detach() for p in parts]
