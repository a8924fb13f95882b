# expect: fail splits the batch with torch.chunk, whose micro-batches differ from tensor_split's (10 rows in 4 give 3,3,3,1; 5 rows in 4 give only 3 micro-batches)
# hint: chunk|tensor_split|micro.?batch(es)?.*(size|count|number|split)|split.*(size|count|number)|fewer micro
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(x.chunk(m), y.chunk(m)):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
