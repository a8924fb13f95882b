# expect: pass a callable class bound with functools.partial; backward per micro-batch in reverse, float read once at the end
# hint:
import functools

import torch


class _GPipe:
    def __init__(self, weight_by="rows"):
        self.weight_by = weight_by

    def __call__(self, stage1, stage2, x, y, loss_fn, n_micro):
        dev1 = next(stage1.parameters()).device
        dev2 = next(stage2.parameters()).device
        m = min(n_micro, x.shape[0])
        pairs = list(zip(torch.tensor_split(x, m), torch.tensor_split(y, m)))
        weighted = []
        for xb, yb in pairs:  # every forward first
            h = stage1(xb.to(dev1))
            out = stage2(h.to(dev2))
            weighted.append(loss_fn(out, yb.to(dev2)) * (xb.shape[0] / x.shape[0]))
        for loss in reversed(weighted):  # then the backwards, any order
            loss.backward()
        total = weighted[0].detach()
        for loss in weighted[1:]:
            total = total + loss.detach()
        return float(total)  # the one host read, after every forward and backward


def _step(runner, stage1, stage2, x, y, loss_fn, n_micro):
    return runner(stage1, stage2, x, y, loss_fn, n_micro)


answer = functools.partial(_step, _GPipe())
