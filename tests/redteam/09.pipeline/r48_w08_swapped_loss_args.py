# expect: fail calls loss_fn(target, out) instead of loss_fn(out, target): same for symmetric losses only
# hint: swap|argument|loss_fn\s*\(\s*out|\(out, target\)|order of
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        target = yb.to(dev2)
        losses.append(loss_fn(target, out) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
