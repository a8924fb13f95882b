# expect: pass micro_batches helper, list comprehensions, one backward of the stacked weighted losses, tensor returned
# hint:
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1, dev2 = (next(s.parameters()).device for s in (stage1, stage2))
    rows = len(x)
    weighted = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro), strict=True):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        weighted.append(loss_fn(out, yb.to(dev2)) * (xb.shape[0] / rows))
    total = torch.stack(weighted).sum()
    total.backward()  # after the last forward: GPipe
    return total.detach()


answer = pipeline_step
