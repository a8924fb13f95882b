# expect: fail prints the step's loss with .item() for logging and then also returns float(loss), two host reads of a device value in one step instead of at most one
# hint: host|read|print|item|once
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
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    print(f"pipeline step: {m} micro-batches, loss {loss.item():.5f}")
    return float(loss)
