# expect: fail stage 1 runs every micro-batch before stage 2 starts any (no overlap of the stages)
# hint: stage 2.*(start|wait|before)|overlap|stage 1.*(all|every|finish)|one stage at a time|interleav|naive
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
    hidden = [stage1(xb.to(d1)).to(d2) for xb in xs]  # stage 1's pass over the batch
    outs = [stage2(h) for h in hidden]  # then stage 2's
    total = sum(loss_fn(o, yb.to(d2)) * (len(yb) / len(y)) for o, yb in zip(outs, ys))
    total.backward()
    return total.detach()
