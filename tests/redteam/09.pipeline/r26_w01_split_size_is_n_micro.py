# expect: fail torch.split's second argument is the SIZE of each piece, not their number: x.split(m) cuts 50 rows into 13 micro-batches of 4 rows (the losses and gradients still come out right, weighted by share), not min(n_micro, len(x)) micro-batches
# hint: split|size|number|how many|count|tensor_split|micro.?batches
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    xs, ys = torch.split(x, m), torch.split(y, m)  # m micro-batches, none empty
    weighted = []
    for xb, yb in zip(xs, ys):
        out = stage2(stage1(xb.to(d1)).to(d2))
        weighted.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
