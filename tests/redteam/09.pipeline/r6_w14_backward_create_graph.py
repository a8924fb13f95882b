# expect: fail backward(create_graph=True) "to be safe": the gradients are right but each carries a graph of its own (double backward's cost, memory kept after the step)
# hint: create_graph|graph|grad_fn|double|higher
import math
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    total = None
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        part = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        total = part if total is None else total + part
    total.backward(create_graph=True)
    return total.detach()
