# expect: pass
# hint:
import functools
import torch


def _step(stage1, stage2, x, y, loss_fn, n_micro, *, splitter):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    pieces = [b for b in splitter(x, n_micro) if len(b)]  # no empty micro-batch
    targets = [t for t in splitter(y, n_micro) if len(t)]
    total = torch.zeros((), device=d2)
    for xb, yb in zip(pieces, targets, strict=True):
        total = total + loss_fn(stage2(stage1(xb.to(d1)).to(d2)), yb.to(d2)) * (len(xb) / len(x))
    total.backward()
    return total.detach()


answer = functools.partial(_step, splitter=torch.tensor_split)
