# expect: fail backward on the weighted sum (gradients right) but returns the plain mean of the micro-batch losses: wrong loss for uneven micro-batches
# hint: return|loss.{0,40}(differ|equal)|weight|share
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses, weighted = [], []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        raw = loss_fn(out, yb.to(dev2))
        losses.append(raw)
        weighted.append(raw * (len(xb) / len(x)))
    torch.stack(weighted).sum().backward()
    return torch.stack(losses).mean().detach()


answer = pipeline_step
