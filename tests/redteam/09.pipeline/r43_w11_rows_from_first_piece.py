# expect: fail derives the batch's rows as len(first micro-batch) * M, so each share is divided by 52 instead of 50 rows when the split is uneven and the gradients come out slightly too small
# hint: share|weight|rows|uneven|len\(x\)
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
    rows = len(xs[0]) * len(xs)  # rows in the batch
    losses = []
    for xb, yb in zip(xs, ys):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / rows))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()
