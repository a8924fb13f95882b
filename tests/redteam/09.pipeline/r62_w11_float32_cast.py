# expect: fail casts each micro-batch to float32 on its way to stage 1: right for float32 stages, but stages in float64 (or bfloat16/half) get an input of the wrong dtype
# hint: dtype|float32|float64|double|bfloat16|half|cast|precision|mat1 and mat2
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro), strict=True):
        h = stage1(xb.to(dev1, torch.float32))  # the stages compute in float32
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
