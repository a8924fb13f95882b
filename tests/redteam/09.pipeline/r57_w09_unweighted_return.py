# expect: fail backpropagates the correctly weighted losses but returns the plain mean of the micro-batches' losses, which is not the batch's loss when the batch does not divide evenly
# hint: loss|return|value|weight|share|rows|uneven
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    raw, weighted = [], []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2))
        raw.append(loss.detach())
        weighted.append(loss * (len(xb) / len(x)))
    torch.stack(weighted).sum().backward()
    return torch.stack(raw).mean()  # the batch's loss, for the caller


answer = pipeline_step
