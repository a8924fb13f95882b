# expect: fail torch.chunk gives fewer micro-batches than min(n_micro, len(x)) (e.g. 5 rows in 4 -> 3)
# hint: chunk|number of micro|how many micro|micro-?batches|min\(n_micro|tensor_split|split
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    xs = torch.chunk(x, n_micro)
    ys = torch.chunk(y, n_micro)
    losses = []
    for xb, yb in zip(xs, ys):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    loss = sum(losses)
    loss.backward()
    return loss.detach()


answer = pipeline_step
