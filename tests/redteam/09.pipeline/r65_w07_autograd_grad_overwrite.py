# expect: fail takes the gradients with torch.autograd.grad and assigns p.grad = g, replacing the gradients already in .grad instead of adding to them
# hint: add|accumulat|already|existing|overwr|replac|\+=|previous|\.grad
# Wrong: right whenever .grad starts as None or zero, but the prompt's stages start with
# gradients in .grad that the step must add to; `p.grad = g` drops them.
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    parts = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
        out = stage2(stage1(xb.to(d1)).to(d2))
        parts.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(parts).sum()
    params = [p for p in (*stage1.parameters(), *stage2.parameters()) if p.requires_grad]
    grads = torch.autograd.grad(total, params)
    for p, g in zip(params, grads, strict=True):
        p.grad = g
    return total.detach()
