# expect: fail runs stage 1 on every micro-batch first, then stage 2 on every one: values right but stage 2 never starts before stage 1 has finished (no pipelining)
# hint: stage 2.{0,80}(before|start)|micro-batch 0|interleav|each micro-batch through
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
    hs = [stage1(xb.to(dev1)).to(dev2) for xb in xs]
    for h, xb, yb in zip(hs, xs, ys):
        losses.append(loss_fn(stage2(h), yb.to(dev2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
