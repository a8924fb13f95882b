# expect: pass
# hint:
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """Targets sent to stage 2 once, then cut there; each micro-batch's loss folded into the
    total with torch.add(..., alpha=share)."""
    dev1, dev2 = (next(s.parameters()).device for s in (stage1, stage2))
    rows = len(x)
    parts = min(n_micro, rows)
    targets = torch.tensor_split(y.to(dev2), parts)
    total = None
    for xs, ys in zip(torch.tensor_split(x, parts), targets):
        loss = loss_fn(stage2(stage1(xs.to(dev1)).to(dev2)), ys)
        share = len(xs) / rows
        total = loss * share if total is None else torch.add(total, loss, alpha=share)
    total.backward()
    return total.detach()
