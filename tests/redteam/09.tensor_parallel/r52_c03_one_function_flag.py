# expect: pass one autograd Function whose direction is a flag (functools.partial makes f and g); parameters registered by name in a loop
# hint:
import functools

import torch
import torch.distributed as dist
from torch import nn


class _Exchange(torch.autograd.Function):
    """All-reduce (sum) on the way named by `in_forward`; the identity on the other way."""

    @staticmethod
    def forward(ctx, in_forward, t):
        ctx.in_forward = in_forward
        if not in_forward:
            return t.view_as(t)
        out = t.detach().clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        if ctx.in_forward:
            return None, grad
        grad = grad.clone()
        dist.all_reduce(grad)
        return None, grad


_f = functools.partial(_Exchange.apply, False)  # before the column-parallel layer
_g = functools.partial(_Exchange.apply, True)  # after the row-parallel layer


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        lin1, act, lin2 = mlp
        idx = torch.chunk(torch.arange(lin1.out_features), world)[rank]
        shards = {
            "col_weight": lin1.weight.detach()[idx],
            "col_bias": lin1.bias.detach()[idx],
            "row_weight": lin2.weight.detach()[:, idx],
            "row_bias": lin2.bias.detach(),
        }
        for name, t in shards.items():
            self.register_parameter(name, nn.Parameter(t.clone().to(torch.float32)))
        self.act = act

    def forward(self, x):
        x = _f(x)
        h = self.act(x @ self.col_weight.T + self.col_bias)
        return _g(h @ self.row_weight.T) + self.row_bias


answer = ParallelMLP
