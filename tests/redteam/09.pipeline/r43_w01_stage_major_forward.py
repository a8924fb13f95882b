# expect: fail runs stage 1 on every micro-batch before stage 2 sees micro-batch 0, so the gradients are right but stage 2 cannot start while stage 1 still works: no pipelining at all
# hint: stage 2|before stage 1|micro-batch 0|interleav|overlap|last one
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
    # stage 1 over the whole batch first, then stage 2: each stage in one go
    hs = [stage1(xb.to(dev1)).to(dev2) for xb in xs]
    outs = [stage2(h) for h in hs]
    loss = sum(
        loss_fn(out, yb.to(dev2)) * (len(yb) / len(x)) for out, yb in zip(outs, ys, strict=True)
    )
    loss.backward()
    return loss.detach()
