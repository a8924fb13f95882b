# expect: fail back-propagates the correctly weighted losses but returns the plain mean of the micro-batches' losses, which differs from the whole batch's loss when the micro-batches are uneven
# hint: loss|return|share|weight|whole batch
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    raw, weighted = [], []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        loss = loss_fn(out, yb.to(dev2))
        raw.append(loss.detach())
        weighted.append(loss * (len(xb) / len(x)))
    torch.stack(weighted).sum().backward()
    return torch.stack(raw).mean()
