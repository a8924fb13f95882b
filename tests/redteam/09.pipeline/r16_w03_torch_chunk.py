# expect: fail torch.chunk makes fewer micro-batches than min(n_micro, len(x)) (5 rows in 4: 2, 2, 1)
# hint: chunk|tensor_split|micro_batches|fewer|number of micro-batches|min\(n_micro
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(torch.chunk(x, n_micro), torch.chunk(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()
