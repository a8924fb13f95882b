# expect: fail micro-batch losses averaged equally, not weighted by their share of rows (uneven splits)
# hint: weight|share|rows|uneven|unequal|proportion|size|mean of (the )?(micro|loss)
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)))
    total = torch.stack(losses).mean()  # as gradient accumulation usually does
    total.backward()
    return total.detach()
