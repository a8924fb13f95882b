# expect: fail backward(retain_graph=True) and returns the loss still attached: every micro-batch's saved activations stay alive after the step, as long as the caller keeps the loss
# hint: retain|graph|saved|activation|memory|free|alive|kept|leak
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro), strict=True):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward(retain_graph=True)  # so that the caller may still backward through it
    return loss


answer = pipeline_step
