# expect: fail tensor_split into n_micro pieces even when the batch has fewer rows: empty micro-batches (NaN loss)
# hint: empty|fewer rows|min\(|len\(x\)|nan|zero rows|more micro-batches than rows
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    weighted = []
    for xb, yb in zip(torch.tensor_split(x, n_micro), torch.tensor_split(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        weighted.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
