# expect: fail weights each micro-batch by its share AND then averages over micro-batches (loss and grads M times too small)
# hint: mean|average|twice|divid|scale|too small|sum|weight|factor
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    weighted = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        weighted.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    loss = torch.stack(weighted).mean()
    loss.backward()
    return loss.detach()


answer = pipeline_step
