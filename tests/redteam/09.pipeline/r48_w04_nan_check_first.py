# expect: fail one host read only, but before the last forward (a NaN check of micro-batch 0's loss)
# hint: host|read|before.{0,20}(last|final) forward|sync|wait|item|bool
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for i, (xb, yb) in enumerate(zip(micro_batches(x, n_micro), micro_batches(y, n_micro))):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        loss = loss_fn(out, yb.to(dev2))
        if i == 0 and not torch.isfinite(loss):  # fail fast, once per step: cheap
            raise FloatingPointError("the first micro-batch's loss is not finite")
        losses.append(loss * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()  # a tensor: no read here


answer = pipeline_step
