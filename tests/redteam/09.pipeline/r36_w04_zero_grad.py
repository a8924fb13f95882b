# expect: fail zeroes the stages' gradients first, discarding what the caller had in .grad
# hint: zero|accumulat|existing|already|add(s|ed)? to|overwr|\.grad
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    stage1.zero_grad(set_to_none=True)
    stage2.zero_grad(set_to_none=True)
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    weighted = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        weighted.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
