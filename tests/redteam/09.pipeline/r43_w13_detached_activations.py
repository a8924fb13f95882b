# expect: fail sends detached activations to stage 2 (h.detach().to(device)) and never back-propagates across the cut, so stage 1's parameters get no gradient from the step
# hint: stage 1|detach|gradient|grad|cut
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(dev1))
        out = stage2(h.detach().to(dev2))  # a plain copy of the activations to the other device
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()
