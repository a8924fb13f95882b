# expect: fail leaves each micro-batch's targets on the CPU and calls loss_fn with them next to stage 2's output on stage 2's device
# hint: target|label|\by\b.*(device|\.to)|loss_fn.*(device|cpu)
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
        losses.append(loss_fn(out, yb) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
