# expect: fail computes the returned loss with one more forward of the whole, unsplit batch through both stages (under no_grad): extra work, and stage calls outside the micro-batches
# hint: extra|whole batch|unsplit|twice|again|more (than|calls)|micro-?batch|forward
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    torch.stack(losses).sum().backward()
    with torch.no_grad():  # the loss to report: the whole batch's, computed plainly
        return loss_fn(stage2(stage1(x.to(d1)).to(d2)), y.to(d2))


answer = pipeline_step
