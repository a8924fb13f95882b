# expect: fail runs stage 1 on every micro-batch before stage 2 starts micro-batch 0 (stage-major loops): no overlap
# hint: stage 2|stage2|before|overlap|pipelin|micro.?batch 0|run ahead|last one
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
    hs = [stage1(xb.to(dev1)).to(dev2) for xb in xs]  # stage 1's micro-batches
    outs = [stage2(h) for h in hs]  # then stage 2's
    losses = [loss_fn(out, yb.to(dev2)) * (len(yb) / len(y)) for out, yb in zip(outs, ys)]
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
