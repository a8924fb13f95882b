# expect: fail the weighted losses are averaged, not summed, for the return value: the gradients are right but the returned loss is 1/M of the batch's
# hint: mean|sum|return|weighted|1/m|average|divide
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    weighted = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        weighted.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    stacked = torch.stack(weighted)
    stacked.sum().backward()
    return stacked.detach().mean()  # the batch's loss
