# expect: pass each micro-batch's mean loss times its row count, summed, divided by the batch size once; whole y moved once then split
# hint: 
import torch


class _Step:
    def __init__(self, stage1, stage2, loss_fn):
        self.s1, self.s2, self.loss_fn = stage1, stage2, loss_fn
        self.d1 = next(stage1.parameters()).device
        self.d2 = next(stage2.parameters()).device

    def __call__(self, x, y, n_micro):
        m = min(n_micro, len(x))
        ys = torch.tensor_split(y.to(self.d2), m)
        rows_weighted = [
            self.loss_fn(self.s2(self.s1(xb.to(self.d1)).to(self.d2)), yb) * len(xb)
            for xb, yb in zip(torch.tensor_split(x, m), ys)
        ]
        total = torch.stack(rows_weighted).sum() / len(x)
        total.backward()
        return total.detach()


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    return _Step(stage1, stage2, loss_fn)(x, y, n_micro)
