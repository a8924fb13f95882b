# expect: fail each micro-batch's loss divided by the number of micro-batches, not weighted by its rows: wrong when sizes differ
# hint: share|rows|weight|evenly|uneven|divide|len\(|number of micro-batches|mean of
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    losses = [loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) for xb, yb in zip(xs, ys)]
    loss = torch.stack(losses).mean()  # the mean of the means
    loss.backward()
    return loss.detach()
