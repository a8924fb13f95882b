# expect: fail guards each micro-batch's loss with `if not torch.isfinite(loss)`, a host read of a device value per micro-batch before the last forward, so the host waits for the device and stage 1 cannot run ahead
# hint: host|read|sync|wait|item|isfinite
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for i, (xb, yb) in enumerate(zip(torch.tensor_split(x, m), torch.tensor_split(y, m))):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        loss = loss_fn(out, yb.to(dev2)) * (len(xb) / len(x))
        if not torch.isfinite(loss):  # stop early on a diverged micro-batch
            raise FloatingPointError(f"micro-batch {i}: loss is not finite")
        losses.append(loss)
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
