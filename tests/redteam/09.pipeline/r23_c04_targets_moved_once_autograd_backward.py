# expect: pass targets moved to stage 2's device once and split there, forwards written as a generator consumed into a list, one torch.autograd.backward over the list of weighted losses, the total summed under no_grad
# hint: 
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, x.size(0))
    y2 = y.to(dev2)  # one copy of the targets, then views of it
    pieces = zip(torch.tensor_split(x, m), torch.tensor_split(y2, m))
    weighted = list(
        loss_fn(stage2(stage1(xb.to(dev1)).to(dev2)), yb) * (xb.size(0) / x.size(0))
        for xb, yb in pieces
    )
    torch.autograd.backward(weighted)  # every forward done: now the backward, once
    with torch.no_grad():
        return sum(weighted[1:], weighted[0].detach())
