# expect: fail feeds stage 1's output to stage 2 without moving it to stage 2's device (the activations stay on stage 1's device)
# hint: activation|stage 1'?s output|output of stage 1|between (the )?stages|stage 2'?s device|cross|hidden
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(d1))
        out = stage2(h)
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
