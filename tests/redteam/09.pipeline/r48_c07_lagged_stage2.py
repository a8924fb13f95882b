# expect: pass stage 2 one micro-batch behind stage 1, a skewed loop (GPipe's clock: at tick t stage 1 runs micro-batch t, stage 2 micro-batch t - 1); judged right, as r6_c04_skewed_loop is
# hint:
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    losses, pending = [], None

    def finish(j, h):
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out, ys[j].to(dev2)) * (len(ys[j]) / len(y)))

    # queue stage 1's next micro-batch before stage 2 takes the previous one, so that
    # stage 1 always has work queued while stage 2 runs
    for i, xb in enumerate(xs):
        h = stage1(xb.to(dev1))
        if pending is not None:
            finish(*pending)
        pending = (i, h)
    finish(*pending)
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
