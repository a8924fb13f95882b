# expect: fail runs every micro-batch through stage 1 before any goes through stage 2, so stage 2 never starts on micro-batch 0 while stage 1 still has micro-batches to run (no pipelining)
# hint: stage 2.*(start|before|wait|idle)|stage 1.*(all|every|last|finish)|interleav|pipelin|overlap|micro-?batch 0|one stage at a time|naive
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
    hs = [stage1(xb.to(d1)) for xb in xs]  # stage 1 on every micro-batch
    outs = [stage2(h.to(d2)) for h in hs]  # then stage 2 on every micro-batch
    total = sum(
        loss_fn(out, yb.to(d2)) * (len(yb) / len(y)) for out, yb in zip(outs, ys)
    )
    total.backward()
    return total.detach()
