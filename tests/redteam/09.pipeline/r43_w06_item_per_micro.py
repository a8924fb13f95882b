# expect: fail accumulates the returned float with loss.item() inside the micro-batch loop, one host read per micro-batch (and before the last forward) instead of at most one per step
# hint: host|read|item|sync|once
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses, running = [], 0.0
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        loss = loss_fn(out, yb.to(dev2)) * (len(xb) / len(x))
        running += loss.item()
        losses.append(loss)
    torch.stack(losses).sum().backward()
    return running
