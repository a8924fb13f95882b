# expect: pass stage 1 kept one micro-batch ahead of stage 2 (judged right, as test_correct_pipelines_pass[pipeline_one_ahead]: stage 2 starts on micro-batch 0 before stage 1 runs the last one wherever there are 3 or more, and on a GPU the launches are asynchronous, so stage 2 starts as soon as its copy lands)
# hint:
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    losses = []
    # keep stage 1 one micro-batch ahead of stage 2, so that it always has work queued
    pending = stage1(xs[0].to(dev1))
    for i in range(len(xs)):
        h = pending
        if i + 1 < len(xs):
            pending = stage1(xs[i + 1].to(dev1))
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out, ys[i].to(dev2)) * (len(xs[i]) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
