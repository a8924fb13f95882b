# expect: pass
# hint:
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """Sizes computed by hand with divmod and torch.split; the loss returned as a float,
    read once, after the backward."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    rows = x.shape[0]
    count = min(n_micro, rows)
    base, extra = divmod(rows, count)
    sizes = [base + 1] * extra + [base] * (count - extra)  # as tensor_split cuts
    pieces = list(zip(torch.split(x, sizes), torch.split(y, sizes)))
    weighted = []
    for xs, ys in pieces:
        acts = stage1(xs.to(dev1)).to(dev2)
        weighted.append(loss_fn(stage2(acts), ys.to(dev2)) * xs.shape[0] / rows)
    loss = torch.stack(weighted).sum()
    loss.backward()
    return loss.item()
