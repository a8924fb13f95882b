# expect: pass loss_fn(..., reduction="sum") / len(x): every loss_fn of the prompt is a mean over its rows, so the sum over the batch over its rows is that mean (judged right, as r6_c05)
# hint:
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        # sum over the micro-batch, then one division by the whole batch's rows: the
        # micro-batch sizes need no weights at all
        losses.append(loss_fn(out, yb.to(dev2), reduction="sum") / len(x))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
