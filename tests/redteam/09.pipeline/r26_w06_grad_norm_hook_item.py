# expect: fail registers a hook on each micro-batch's activations at the cut that records the gradient's norm with .item(): each hook runs during backward and reads a device value, M host reads (callbacks, after the last forward) besides nothing visible in the step's own code
# hint: hook|item|read|host|backward|norm|callback|per micro|each micro|once
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    grad_norms = {}
    total = 0
    for i, (xb, yb) in enumerate(zip(micro_batches(x, n_micro), micro_batches(y, n_micro))):
        h = stage1(xb.to(d1)).to(d2)
        # watch the gradient crossing the cut, per micro-batch (handy to spot a vanishing one)
        h.register_hook(lambda g, i=i: grad_norms.__setitem__(i, g.norm().item()))
        total = total + loss_fn(stage2(h), yb.to(d2)) * (len(xb) / len(x))
    total.backward()
    answer.cut_grad_norms = grad_norms
    return total.detach()
