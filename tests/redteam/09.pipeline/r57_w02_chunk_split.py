# expect: fail splits with torch.chunk, which gives fewer than min(n_micro, len(x)) micro-batches for some sizes (9 rows in 4: 3, 3, 3) and unequal sizes (10 in 4: 3, 3, 3, 1); loss and gradients still right
# hint: micro-?batch|chunk|tensor_split|how many|number|count|split
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    xs = torch.chunk(x, min(n_micro, len(x)))
    ys = torch.chunk(y, min(n_micro, len(x)))
    losses = []
    for xb, yb in zip(xs, ys):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
