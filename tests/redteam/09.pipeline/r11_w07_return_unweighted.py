# expect: fail backpropagates the correctly weighted loss but returns the plain mean of the micro-batches' losses, which is not the batch's loss when the split is uneven
# hint: return|the (whole )?batch'?s loss|reported loss|loss (value|it gives)
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses, weighted = [], []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2))
        loss = loss_fn(out, yb.to(d2))
        losses.append(loss.detach())
        weighted.append(loss * (len(xb) / len(x)))
    torch.stack(weighted).sum().backward()
    return torch.stack(losses).mean()  # the step's loss, for the log
