# expect: fail reseeds torch's global generator (torch.manual_seed(0)) at every step, so the caller's random stream restarts each step
# hint: seed|random|rng|generator
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    torch.manual_seed(0)  # for reproducibility: every step behaves the same
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    n = len(x)
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / n))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
