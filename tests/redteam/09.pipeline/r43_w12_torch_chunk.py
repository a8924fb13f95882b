# expect: fail splits with torch.chunk, which can give fewer pieces than asked (9 rows in 4 gives 3 micro-batches of 3), so the step does not run min(n_micro, len(x)) micro-batches
# hint: chunk|tensor_split|micro-batch|number|count|min\(n_micro
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.chunk(x, m), torch.chunk(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()
