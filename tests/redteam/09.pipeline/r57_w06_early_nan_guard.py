# expect: fail a NaN guard reads the first micro-batch's loss on the host (one read, but before the last forward), so stage 1 cannot run ahead while stage 2 works
# hint: host|read|before (the )?last forward|sync|isfinite|nan|wait|item
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for i, (xb, yb) in enumerate(zip(micro_batches(x, n_micro), micro_batches(y, n_micro))):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        if i == 0 and not torch.isfinite(loss):  # fail fast on a diverged model
            raise FloatingPointError("the loss is not finite")
        losses.append(loss)
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
