# expect: fail runs stage 1 on every micro-batch before stage 2 starts on any (stage by stage), so stage 2 never works while stage 1 does; gradients still right
# hint: stage 2|overlap|interleav|before stage 1|last one|pipelin|micro-batch 0|idle|bubble
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    hs = [stage1(xb.to(d1)).to(d2) for xb in xs]  # stage 1 on everything first
    outs = [stage2(h) for h in hs]  # then stage 2
    total = sum(
        loss_fn(out, yb.to(d2)) * (len(yb) / len(y)) for out, yb in zip(outs, ys)
    )
    total.backward()
    return total.detach()


answer = pipeline_step
