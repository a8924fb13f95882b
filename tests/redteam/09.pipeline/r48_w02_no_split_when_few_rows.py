# expect: fail with fewer rows than n_micro it runs the batch as one micro-batch instead of one per row
# hint: micro.?batch|split|rows|how many|number|count|fewer
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    # too few rows to give every micro-batch its share: no point in splitting
    m = n_micro if len(x) >= n_micro else 1
    losses = []
    for xb, yb in zip(micro_batches(x, m), micro_batches(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
