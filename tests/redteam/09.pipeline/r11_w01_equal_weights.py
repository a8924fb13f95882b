# expect: fail weights every micro-batch's mean loss equally (1/number of micro-batches) instead of by its share of the rows, so uneven splits give the wrong loss and gradients
# hint: weigh|share|proportion|uneven|unequal|divide evenly|(size|rows) of (each|the) micro|micro-?batch'?s? (size|rows)|equal(ly)? weight|1\s*/\s*(m|n_micro|the number)|mean of (the )?micro
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2))
        losses.append(loss_fn(out, yb.to(d2)) / m)  # the average of the micro-batches' losses
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
