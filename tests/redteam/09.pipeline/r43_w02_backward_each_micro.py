# expect: fail calls backward right after each micro-batch's forward (gradient accumulation), so the gradients match but a backward runs before the last forward, which is not GPipe's schedule and serializes the stages
# hint: backward|forward before|GPipe|schedule|last forward
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    total = torch.zeros((), device=dev2)
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        loss = loss_fn(out, yb.to(dev2)) * (len(xb) / len(x))
        loss.backward()  # frees this micro-batch's activations at once
        total += loss.detach()
    return total
