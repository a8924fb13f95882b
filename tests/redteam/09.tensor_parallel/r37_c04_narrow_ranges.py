# expect: pass shard ranges by ceil arithmetic (torch.chunk's), narrow().clone(), functional F.linear, ParameterDict
# hint:
# name: ParallelMLP
import math

import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _IdentityThenSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_x):
        out = grad_x.contiguous().clone()
        dist.all_reduce(out)
        return out


class _SumThenIdentity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, y):
        out = y.contiguous().clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad_y):
        return grad_y


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        h = mlp[0].weight.size(0)
        per = math.ceil(h / world)  # torch.chunk's piece size
        start = min(rank * per, h)
        size = max(0, min(per, h - start))
        W1, B1 = mlp[0].weight.detach(), mlp[0].bias.detach()
        W2, B2 = mlp[2].weight.detach(), mlp[2].bias.detach()
        self.p = nn.ParameterDict(
            {
                "w1": nn.Parameter(W1.narrow(0, start, size).clone()),
                "b1": nn.Parameter(B1.narrow(0, start, size).clone()),
                "w2": nn.Parameter(W2.narrow(1, start, size).clone()),
                "b2": nn.Parameter(B2.clone()),
            }
        )
        self.act = mlp[1]

    def forward(self, x):
        p = self.p
        x = _IdentityThenSum.apply(x)
        partial = F.linear(self.act(F.linear(x, p["w1"], p["b1"])), p["w2"])
        return _SumThenIdentity.apply(partial) + p["b2"]
