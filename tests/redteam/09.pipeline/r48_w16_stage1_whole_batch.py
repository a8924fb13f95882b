# expect: fail stage 1 runs the whole batch at once, only stage 2 sees micro-batches: nothing for stage 2 to overlap with
# hint: stage 1|whole batch|micro.?batch|split|overlap|before stage 1
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    h = stage1(x.to(dev1))  # one big product on stage 1's device
    losses = []
    for hb, yb in zip(micro_batches(h, n_micro), micro_batches(y, n_micro)):
        out = stage2(hb.to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(hb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
