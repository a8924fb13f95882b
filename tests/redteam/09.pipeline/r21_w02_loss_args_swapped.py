# expect: fail loss_fn(target, out): arguments in the wrong order, right only for symmetric losses such as mse (cross_entropy, kl_div, bce differ or fail)
# hint: order|argument|swap|target|input|loss_fn\(out
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    total = 0
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        pred = stage2(stage1(xb.to(d1)).to(d2))
        total = total + loss_fn(yb.to(d2), pred) * (len(xb) / len(x))
    total.backward()
    return total.detach()
