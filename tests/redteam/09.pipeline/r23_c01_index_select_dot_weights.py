# expect: pass micro-batches gathered with index_select from torch.arange(n).tensor_split(m), the weighted total as a dot product (stacked losses @ a weight vector on stage 2's device), one backward of it
# hint: 
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    rows = torch.arange(len(x))
    groups = rows.tensor_split(min(n_micro, len(x)))  # sizes differ by at most one, none empty
    losses = [
        loss_fn(
            stage2(stage1(x.index_select(0, g).to(d1)).to(d2)),
            y.index_select(0, g).to(d2),
        )
        for g in groups
    ]
    shares = torch.tensor([len(g) / len(x) for g in groups], device=d2, dtype=losses[0].dtype)
    total = torch.stack(losses) @ shares
    total.backward()
    return total.detach()
