# expect: fail turns on torch.backends.cudnn.benchmark for speed and never puts it back: a process-wide setting left changed
# hint: cudnn|benchmark|backends|setting|process|put (it )?back|restore|left
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    torch.backends.cudnn.benchmark = True  # let cuDNN pick the fastest kernels
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
