# expect: fail weights each loss by 1 / n_micro (not the share of rows, nor the number of micro-batches used)
# hint: share of the batch's rows
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    k = min(n_micro, len(x))
    loss = sum(loss_fn(stage2(stage1(a.to(d1)).to(d2)), b.to(d2)) / n_micro
               for a, b in zip(torch.tensor_split(x, k), torch.tensor_split(y, k)))
    loss.backward()
    return loss.detach()
