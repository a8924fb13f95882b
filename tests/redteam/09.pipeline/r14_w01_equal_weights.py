# expect: fail each micro-batch's loss weighted 1/M instead of its share of the rows (wrong on uneven splits)
# hint: share|rows|weight|uneven|proportion|1 ?/ ?(m|n_micro)|equal
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    losses = []
    for xb, yb in zip(xs, ys):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2))
        losses.append(loss_fn(out, yb.to(d2)))
    loss = torch.stack(losses).mean()  # the mean of the micro-batches' means
    loss.backward()
    return loss.detach()


answer = pipeline_step
