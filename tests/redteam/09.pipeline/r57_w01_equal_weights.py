# expect: fail weights every micro-batch's loss equally (1 / number of micro-batches) instead of by its share of the rows: right only when the batch divides evenly
# hint: weight|share|rows|uneven|evenly|divid|mean of (the )?micro
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    losses = []
    for xb, yb in zip(xs, ys):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) / len(xs))  # the mean of the micro-batches' means
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
