# expect: pass functools.partial over a general step, torch.autograd.backward on the list of losses, backwards in reverse
# hint:
import functools

import torch


def _device(module):
    return next(module.parameters()).device


def _gpipe(stage1, stage2, x, y, loss_fn, n_micro, *, as_float):
    count = min(n_micro, x.shape[0])
    sizes = [len(part) for part in torch.tensor_split(torch.arange(len(x)), count)]
    first, second = _device(stage1), _device(stage2)
    losses, start = [], 0
    for size in sizes:
        xb, yb = x[start : start + size], y[start : start + size]
        start += size
        out = stage2(stage1(xb.to(first)).to(second))
        losses.append(loss_fn(out, yb.to(second)) * (size / len(x)))
    torch.autograd.backward(losses[::-1])  # no backward before the last forward
    total = sum(loss.detach() for loss in losses)
    return float(total) if as_float else total


answer = functools.partial(_gpipe, as_float=True)
