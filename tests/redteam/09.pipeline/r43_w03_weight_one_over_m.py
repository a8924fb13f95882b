# expect: fail weights every micro-batch's loss by 1 / M instead of by its share of the rows, which is only right when the batch divides evenly (50 rows in 4 gives 13, 13, 12, 12)
# hint: share|weight|rows|uneven|divide
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)))
    loss = torch.stack(losses).mean()  # the mean of the micro-batches' means
    loss.backward()
    return loss.detach()
