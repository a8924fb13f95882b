# expect: fail checks each micro-batch's loss for NaN/inf with an `if` in the loop: a bool() host read per micro-batch, before the last forward, so stage 1 cannot run ahead
# hint: host|read|sync|bool|isfinite|nan|wait|before the last forward|more than one
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro), strict=True):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        loss = loss_fn(out, yb.to(dev2))
        if not torch.isfinite(loss):  # stop early on a diverged micro-batch
            raise FloatingPointError("non-finite loss in a micro-batch")
        losses.append(loss * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
