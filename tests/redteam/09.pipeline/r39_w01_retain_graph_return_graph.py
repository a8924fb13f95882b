# expect: fail backward(retain_graph=True) 'to be safe': keeps every micro-batch's activations alive after the step (prompt for 9.1 does not mention it)
# hint: retain
import torch
from d2lgpu.pipeline import micro_batches
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device; d2 = next(stage2.parameters()).device
    total = 0
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        total = total + loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * (len(xb) / len(x))
    total.backward(retain_graph=True)
    return total
