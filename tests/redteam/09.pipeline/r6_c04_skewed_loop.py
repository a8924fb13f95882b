# expect: pass
# hint:
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    """A skewed loop: at tick t stage 1 runs micro-batch t and stage 2 micro-batch t - 1."""
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    sent, losses = {}, []
    for t in range(len(xs) + 1):
        if t < len(xs):
            sent[t] = stage1(xs[t].to(d1)).to(d2)
        if t >= 1:
            i = t - 1
            losses.append(loss_fn(stage2(sent.pop(i)), ys[i].to(d2)) * (len(xs[i]) / len(x)))
    for loss in reversed(losses):
        loss.backward()
    return torch.stack([loss.detach() for loss in losses]).sum()
