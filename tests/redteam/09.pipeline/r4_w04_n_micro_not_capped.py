# expect: fail splits into n_micro pieces without min(n_micro, len(x)): fewer rows than micro-batches gives empty micro-batches, whose mean loss is NaN
# hint: empty|min\(|fewer rows|nan|rows than
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(torch.tensor_split(x, n_micro), torch.tensor_split(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    for loss in losses:
        loss.backward()
    return torch.stack([l.detach() for l in losses]).sum()
