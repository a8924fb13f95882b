# expect: fail a NaN guard (if not torch.isfinite(loss)) per micro-batch reads a device value on the host before the last forward
# hint: host|read|sync|wait|bool|isfinite|nan
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        loss = loss_fn(out, yb.to(dev2))
        if not torch.isfinite(loss):  # fail fast on a diverged micro-batch
            raise FloatingPointError("loss is not finite")
        losses.append(loss * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
