# expect: fail backward of each micro-batch right after its forward (not GPipe: a backward before the last forward)
# hint: backward|forward.*before|gpipe|schedule|order
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    total = None
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        loss.backward()  # frees this micro-batch's activations at once
        total = loss.detach() if total is None else total + loss.detach()
    return total


answer = pipeline_step
