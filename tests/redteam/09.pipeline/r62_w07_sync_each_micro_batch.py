# expect: fail synchronizes stage 1's device after each micro-batch "so the activations are ready before the copy": the host waits for the device every micro-batch and stage 1 can never run ahead
# hint: sync|synchroni[sz]|wait|host|block|stall|run ahead|overlap
import torch

from d2lgpu.pipeline import micro_batches
from d2lgpu.timing import sync


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro), strict=True):
        h = stage1(xb.to(dev1))
        sync(dev1)  # make sure stage 1 has finished before its output crosses over
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
