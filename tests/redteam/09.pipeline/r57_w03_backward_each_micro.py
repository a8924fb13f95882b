# expect: fail runs each micro-batch's backward right after its forward (gradient accumulation), not every forward before any backward as GPipe does; gradients still right
# hint: backward|before (the )?last forward|gpipe|schedule|order|every forward
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    parts = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        loss.backward()  # frees this micro-batch's activations at once
        parts.append(loss.detach())
    return torch.stack(parts).sum()


answer = pipeline_step
