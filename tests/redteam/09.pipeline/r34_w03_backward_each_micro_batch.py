# expect: fail backward right after each micro-batch's forward (gradient accumulation, not GPipe): a backward before the last forward
# hint: every forward|before any backward|GPipe|backward.{0,40}(before|after)
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        loss = loss_fn(out, yb.to(dev2)) * (len(xb) / len(x))
        loss.backward()
        losses.append(loss.detach())
    total = torch.stack(losses).sum()
    return total.detach()


answer = pipeline_step
