# expect: fail finds the stages' devices once, on the first call, and reuses them for later stages
# hint: device|state|between calls|cache|global|second call|earlier call
import torch
from d2lgpu.pipeline import micro_batches

_devices = None


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    global _devices
    if _devices is None:  # look the devices up once
        _devices = (next(stage1.parameters()).device, next(stage2.parameters()).device)
    d1, d2 = _devices
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
