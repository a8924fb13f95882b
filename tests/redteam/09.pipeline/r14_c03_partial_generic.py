# expect: pass a generic n-stage GPipe step bound to two stages with functools.partial, autograd.backward on the list
# hint: 
import functools

import torch


def gpipe_step(stages, loss_fn, n_micro, x, y):
    devices = [next(stage.parameters()).device for stage in stages]
    count = min(n_micro, x.shape[0])
    xs, ys = torch.tensor_split(x, count), torch.tensor_split(y, count)
    rows = x.shape[0]
    losses = []
    for xb, yb in zip(xs, ys):
        h = xb
        for stage, device in zip(stages, devices):
            h = stage(h.to(device))
        losses.append(loss_fn(h, yb.to(devices[-1])).mul(xb.shape[0] / rows))
    torch.autograd.backward(losses)  # after every forward
    total = losses[0].detach()
    for loss in losses[1:]:
        total = total + loss.detach()
    return total


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    step = functools.partial(gpipe_step, [stage1, stage2], loss_fn, n_micro)
    return step(x, y)


answer = pipeline_step
