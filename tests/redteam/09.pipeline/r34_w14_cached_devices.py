# expect: fail caches the stages' devices in a module-level global on the first call: later calls with stages on other devices use the stale ones
# hint: device|cache|previous|between calls
import torch

_devices = None


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    global _devices
    if _devices is None:
        _devices = (next(stage1.parameters()).device, next(stage2.parameters()).device)
    dev1, dev2 = _devices
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
