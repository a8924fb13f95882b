# expect: fail gradients from torch.autograd.grad ASSIGNED to p.grad: the gradients already in .grad are replaced, not added to
# hint: add|accumulat|already|existing|\.grad|zero|replace|overwr
import math
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    total = 0
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        total = total + loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
    params = [*stage1.parameters(), *stage2.parameters()]
    grads = torch.autograd.grad(total, params)
    for p, g in zip(params, grads):
        p.grad = g
    return total.detach()
