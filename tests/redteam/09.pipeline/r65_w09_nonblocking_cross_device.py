# expect: fail copies activations with non_blocking=True whenever the devices differ and never waits: with stage 2 on the CPU, it reads a GPU-to-CPU copy that may not have landed
# hint: non.?blocking|wait|synchron|async|copy.{0,40}(cpu|host|land|finish|complete)|race|event
# Wrong: a non_blocking copy from a GPU to the CPU returns before the data is there; the prompt
# says it must be waited for before the CPU uses it. Between GPUs (or to a GPU) it is fine.
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    overlap = d1 != d2  # let the copy overlap the next micro-batch's forward
    m = min(n_micro, len(x))
    parts = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2, non_blocking=overlap))
        parts.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(parts).sum()
    total.backward()
    return total.detach()
