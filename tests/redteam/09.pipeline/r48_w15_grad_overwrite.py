# expect: fail torch.autograd.grad then p.grad = g: overwrites the gradients already in .grad instead of adding
# hint: add|accumul|existing|already|pre-?existing|\.grad|overwr|replac
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    params = [p for stage in (stage1, stage2) for p in stage.parameters() if p.requires_grad]
    grads = torch.autograd.grad(total, params)
    for p, g in zip(params, grads):
        p.grad = g
    return total.detach()


answer = pipeline_step
