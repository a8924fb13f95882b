# expect: fail computes loss_fn on the CPU: each micro-batch's output is copied back to the host instead of the targets going to stage 2's device
# hint: cpu|host|device|stage 2|target|loss_fn
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out.cpu(), yb) * (len(xb) / len(x)))  # y is on the CPU already
    for loss in losses:
        loss.backward()
    return torch.stack([l.detach() for l in losses]).sum()
