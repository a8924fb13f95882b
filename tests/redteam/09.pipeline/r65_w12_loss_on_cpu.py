# expect: fail runs loss_fn on the CPU, where the targets are (out.cpu()), not on stage 2's device: a device-to-host copy and wait per micro-batch
# hint: loss.{0,40}(device|cpu)|stage 2.?s device|\.cpu|target.{0,30}device|host|read|sync|copy|wait
# Wrong: the prompt says loss_fn runs on stage 2's device, with the targets moved there; bringing
# each output to the CPU instead makes the host wait for stage 2 on every micro-batch.
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    parts = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
        out = stage2(stage1(xb.to(d1)).to(d2))
        parts.append(loss_fn(out.cpu(), yb) * (len(xb) / len(x)))  # y is on the CPU already
    total = torch.stack(parts).sum()
    total.backward()
    return total.detach()
