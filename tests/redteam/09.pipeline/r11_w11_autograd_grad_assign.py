# expect: fail computes the gradients with torch.autograd.grad and assigns them to p.grad, overwriting the gradients already there instead of adding to them
# hint: overwr|replac|assign|add(s|ed|ing)? to|accumulat|existing|already in|\.grad\s*=|autograd\.grad|\+=
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
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    params = [*stage1.parameters(), *stage2.parameters()]
    grads = torch.autograd.grad(total, params)
    for p, g in zip(params, grads):
        p.grad = g
    return total.detach()
