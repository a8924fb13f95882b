# expect: fail moves the activations to stage 2's device but leaves each micro-batch's targets on the CPU, which only works when stage 2 is on the CPU too
# hint: target|device|\.to\(|cpu
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()
