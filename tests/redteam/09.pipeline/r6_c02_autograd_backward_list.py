# expect: pass
# hint:
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    """torch.autograd.backward over the list of weighted losses; returns the total, still
    attached to its (freed) graph."""
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    parts = [
        loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * (len(xb) / len(x))
        for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro))
    ]
    torch.autograd.backward(parts)
    return sum(parts)
