# expect: fail the running total made on stage 1's device, added to losses on stage 2's
# hint: mixed devices
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    k = min(n_micro, len(x))
    total = torch.zeros((), device=d1)
    for a, b in zip(torch.tensor_split(x, k), torch.tensor_split(y, k)):
        total = total + loss_fn(stage2(stage1(a.to(d1)).to(d2)), b.to(d2)) * len(a) / len(x)
    total.backward()
    return total.detach()
