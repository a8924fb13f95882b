# expect: fail skips the activations' copy when both stages' devices have the same type: on cuda:0 and cuda:1, stage 2 gets stage 1's output on the wrong GPU
# hint: device|index|cuda:1|wrong (device|gpu)|same (type|kind)|copy|move|\.to\(
# Wrong: the prompt sends each micro-batch's activations to stage 2's device; comparing only
# device.type treats cuda:0 and cuda:1 as one device (right on CPU+CPU or GPU+CPU layouts).
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    parts = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True):
        h = stage1(xb.to(d1))
        if d1.type != d2.type:  # no copy needed "on the same device"
            h = h.to(d2)
        out = stage2(h)
        parts.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(parts).sum()
    total.backward()
    return total.detach()
