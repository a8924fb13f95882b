# expect: fail a NaN guard on each micro-batch's loss (bool of a device tensor) reads the device on the host M times, before the last forward
# hint: read|host|sync|isnan|nan|bool|\.item|before the last forward|wait
# Wrong: `if torch.isnan(loss)` turns a device tensor into a Python bool: one host read per
# micro-batch, the first before stage 1's next forward; the prompt allows one, at the end.
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    parts = []
    for i, (xb, yb) in enumerate(zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2))
        if torch.isnan(loss):
            raise FloatingPointError(f"micro-batch {i}: the loss is NaN")
        parts.append(loss * (len(xb) / len(x)))
    total = torch.stack(parts).sum()
    total.backward()
    return total.detach()
