# expect: fail splits with torch.chunk, which gives fewer than min(n_micro, len(x)) micro-batches for some sizes (6 rows in 4 -> 3 of 2, 9 in 4 -> 3 of 3)
# hint: chunk|micro.?batch(es)?|number of|how many|count|fewer|tensor_split|split
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.chunk(x, m), torch.chunk(y, m), strict=True):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
