# expect: fail copies the whole batch's targets to stage 2's device inside the loop and slices there: M full copies of y per step instead of one micro-batch each (M times the bytes moved)
# hint: copy|copies|whole|entire|target|bytes|transfer|moved|y\.to
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    start = 0
    for xb in micro_batches(x, n_micro):
        stop = start + len(xb)
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        target = y.to(dev2)[start:stop]  # this micro-batch's rows of the targets
        losses.append(loss_fn(out, target) * (len(xb) / len(x)))
        start = stop
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
