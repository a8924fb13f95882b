# expect: fail splits with torch.chunk, which gives fewer micro-batches than min(n_micro, len(x)) (6 rows in 4 -> 3)
# hint: chunk|number of micro|micro-batch(es)? count|fewer micro|how many micro|tensor_split|min\(n_micro
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    weighted = []
    for xb, yb in zip(x.chunk(n_micro), y.chunk(n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        weighted.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
