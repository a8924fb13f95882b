# expect: pass
# hint:
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    """The whole batch to stage 1's device and the targets to stage 2's, then tensor_split;
    a tensor weight; float at the end (one host read, after every forward)."""
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    M = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x.to(d1), M), torch.tensor_split(y.to(d2), M)
    losses = []
    for xb, yb in zip(xs, ys, strict=True):
        h = stage1(xb)
        losses.append(loss_fn(stage2(h.to(d2)), yb) * (xb.shape[0] / x.shape[0]))
    total = torch.stack(losses).sum()
    total.backward()
    return float(total)
