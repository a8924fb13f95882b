# expect: fail treats n_micro as giving a micro-batch size (torch.split by len(x) // n_micro), which makes 5 micro-batches of 50 rows instead of 4 whenever the batch does not divide evenly
# hint: micro-batch|min\(n_micro|number|count|tensor_split
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    size = max(1, len(x) // n_micro)  # rows per micro-batch
    losses = []
    for xb, yb in zip(torch.split(x, size), torch.split(y, size)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()
