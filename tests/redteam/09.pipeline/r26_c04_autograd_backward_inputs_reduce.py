# expect: pass aliases (torch.tensor_split as cut, Tensor.to with device=), the weighted sum by functools.reduce(operator.add), and torch.autograd.backward(total, inputs=[every parameter of both stages that needs a gradient]), which adds to .grad as a plain backward does
# hint: 
import functools
import operator

import torch
from torch import tensor_split as cut


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    terms = []
    for xb, yb in zip(cut(x, m), cut(y, m)):
        h = torch.Tensor.to(stage1(xb.to(device=d1)), device=d2)
        terms.append(loss_fn(stage2(h), yb.to(device=d2)) * (xb.shape[0] / x.shape[0]))
    total = functools.reduce(operator.add, terms)
    params = [p for s in (stage1, stage2) for p in s.parameters() if p.requires_grad]
    torch.autograd.backward(total, inputs=params)
    return total.detach()
