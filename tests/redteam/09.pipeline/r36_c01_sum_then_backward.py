# expect: pass plain lists, weighted losses summed, one backward on the sum, tensor returned
# hint:
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    xs = torch.tensor_split(x, m)
    ys = torch.tensor_split(y, m)
    weighted = []
    for xb, yb in zip(xs, ys):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2))
        weighted.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
