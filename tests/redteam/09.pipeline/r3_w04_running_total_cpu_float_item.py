# expect: fail a float running total with .item() per micro-batch (a host read each time)
# hint: read device values on the host
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    k = min(n_micro, len(x))
    total, losses = 0.0, []
    for a, b in zip(torch.tensor_split(x, k), torch.tensor_split(y, k)):
        l = loss_fn(stage2(stage1(a.to(d1)).to(d2)), b.to(d2)) * (len(a) / len(x))
        losses.append(l)
        total += l.item()
    sum(losses).backward()
    return total
