# expect: pass
# hint: 
import torch
from d2lgpu.pipeline import micro_batches
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    """Every forward first, then one backward of the weighted sum."""
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    total = None
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        part = loss_fn(out, yb.to(d2)) * (xb.shape[0] / x.shape[0])
        total = part if total is None else total + part
    total.backward()
    return total.detach()
