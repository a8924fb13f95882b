# expect: fail prints the loss tensor for debugging and also returns float(loss): two host reads in one step
# hint: print|read|host|item|float|once
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    for loss in losses:
        loss.backward()
    total = torch.stack([l.detach() for l in losses]).sum()
    print("step loss:", total)
    return float(total)
