# expect: fail splits into n_micro pieces without min(n_micro, len(x)), so a batch with fewer rows than micro-batches gets empty micro-batches (nan loss and gradients)
# hint: empty|min\(|fewer rows|rows than|nan|len\(x\)|none empty
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(torch.tensor_split(x, n_micro), torch.tensor_split(y, n_micro)):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
