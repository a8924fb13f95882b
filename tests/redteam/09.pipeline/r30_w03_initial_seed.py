# expect: fail reseeds the global generator with torch.initial_seed() every step, rewinding the caller's random stream to its start each step
# hint: seed|random|rng|generator
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    # keep the caller's own seed, but start every step from it, so steps are reproducible
    torch.manual_seed(torch.initial_seed())
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    n = len(x)
    total = 0
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
        out = stage2(stage1(xb.to(d1)).to(d2))
        total = total + loss_fn(out, yb.to(d2)) * (len(xb) / n)
    total.backward()
    return total.detach()


answer = pipeline_step
