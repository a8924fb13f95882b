# expect: fail torch.chunk gives fewer than min(n_micro, len(x)) micro-batches for some sizes (9 rows in 4: 3)
# hint: micro.?batch|chunk|split|how many|number|count|pieces
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.chunk(x, m), torch.chunk(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
