# expect: fail tensor_split(x, n_micro) without min(n_micro, len(x)): empty micro-batches, NaN loss on small batches
# hint: empty|nan|fewer rows|min\(|tensor_split|micro-?batches
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    xs = torch.tensor_split(x, n_micro)
    ys = torch.tensor_split(y, n_micro)
    losses = []
    for xb, yb in zip(xs, ys):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (xb.shape[0] / x.shape[0]))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
