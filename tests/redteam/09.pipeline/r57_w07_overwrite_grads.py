# expect: fail computes the gradients with torch.autograd.grad and assigns them to .grad, overwriting the gradients already there instead of adding to them
# hint: accumulat|add(ed)? to|already|existing|overwr|zero|\.grad
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    params = [*stage1.parameters(), *stage2.parameters()]
    for p, g in zip(params, torch.autograd.grad(total, params), strict=True):
        p.grad = g
    return total.detach()


answer = pipeline_step
