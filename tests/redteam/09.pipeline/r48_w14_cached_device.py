# expect: fail caches each stage's device across calls (lru_cache on the module): stale once a stage moves
# hint: device|cache|stale|moved|wrong device
import functools

import torch
from d2lgpu.pipeline import micro_batches


@functools.lru_cache(maxsize=None)
def _device(stage):  # next(parameters()) once per stage, not once per step
    return next(stage.parameters()).device


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1, dev2 = _device(stage1), _device(stage2)
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
