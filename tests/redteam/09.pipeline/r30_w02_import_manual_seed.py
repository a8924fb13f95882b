# expect: fail calls manual_seed (imported from torch at module top) in every step, resetting the caller's global random generator
# hint: seed|random|rng|generator
import torch
from torch import manual_seed

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    manual_seed(1234 + n_micro)  # a fixed seed per schedule: the same micro-batch run every time
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    n = len(x)
    losses = []
    for xb, yb in zip(micro_batches(x, m), micro_batches(y, m), strict=True):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (xb.shape[0] / n))
    for loss in losses:  # all forwards done: now the backwards
        loss.backward()
    return sum(loss.detach() for loss in losses)


answer = pipeline_step
