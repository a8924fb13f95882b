# expect: pass
# hint:
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """Boundaries at round(i * N / M) (half up, in integers): M consecutive, non-empty
    micro-batches whose sizes differ by at most one (10 rows in 4: 3, 2, 3, 2)."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    n = len(x)
    m = min(n_micro, n)
    cuts = [(2 * i * n + m) // (2 * m) for i in range(m + 1)]
    total = None
    for lo, hi in zip(cuts, cuts[1:]):
        out = stage2(stage1(x[lo:hi].to(dev1)).to(dev2))
        part = loss_fn(out, y[lo:hi].to(dev2)) * ((hi - lo) / n)
        total = part if total is None else total + part
    total.backward()
    return total.detach()
