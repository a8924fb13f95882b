# expect: pass functools.partial for the moves, one torch.autograd.backward over all the micro-batch losses
# hint: 
import functools

import torch


def _to(device, t):
    return t.to(device)


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    to1 = functools.partial(_to, next(stage1.parameters()).device)
    to2 = functools.partial(_to, next(stage2.parameters()).device)
    count = min(n_micro, len(x))
    weighted = [
        loss_fn(stage2(to2(stage1(to1(xb)))), to2(yb)) * (xb.shape[0] / x.shape[0])
        for xb, yb in zip(x.tensor_split(count), y.tensor_split(count))
    ]
    torch.autograd.backward(weighted)
    return sum(w.detach() for w in weighted)
