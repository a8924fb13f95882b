# expect: fail targets never moved to stage 2's device: loss_fn gets the output there and the targets on the CPU
# hint: device|target|\.to\(|move|cpu
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    weighted = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        weighted.append(loss_fn(out, yb) * (len(xb) / len(x)))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
