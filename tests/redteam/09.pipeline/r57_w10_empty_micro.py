# expect: fail splits into n_micro pieces with torch.tensor_split without min(n_micro, len(x)), so a batch with fewer rows than micro-batches gets empty micro-batches (their mean loss is NaN)
# hint: empty|fewer rows|min\(|nan|micro-?batch|number|count
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    xs, ys = torch.tensor_split(x, n_micro), torch.tensor_split(y, n_micro)
    losses = []
    for xb, yb in zip(xs, ys):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
