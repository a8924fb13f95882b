# expect: fail stage 1 per micro-batch, but stage 2 runs once on the concatenated activations: stage 2 cannot start on micro-batch 0 before stage 1 has run the last one
# hint: stage 2|micro|before|last|start|overlap|call
import math
import torch
from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    hs = [stage1(xb.to(d1)).to(d2) for xb in micro_batches(x, n_micro)]
    loss = loss_fn(stage2(torch.cat(hs)), y.to(d2))
    loss.backward()
    return loss.detach()
