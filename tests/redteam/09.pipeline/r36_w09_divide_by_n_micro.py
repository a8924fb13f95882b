# expect: fail scales each loss by 1 / n_micro (the requested count), wrong for uneven splits and batches with fewer rows
# hint: weight|share|rows|n_micro|scale|uneven|divid|size
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    total = 0
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        total = total + loss_fn(out, yb.to(d2)) / n_micro
    total.backward()
    return total.detach()
