# expect: fail backward right after each micro-batch's forward (gradient accumulation, not GPipe)
# hint: before (any|the first) backward|all (the )?forwards|backward.*(after|inside|each)|gpipe|schedule|order|interleav
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    total = torch.zeros((), device=d2)
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        loss.backward()  # frees the micro-batch's activations at once
        total += loss.detach()
    return total
