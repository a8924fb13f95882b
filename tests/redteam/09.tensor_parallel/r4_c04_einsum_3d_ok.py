# expect: pass
# hint: 
import sys
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F

import functools


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.detach().clone()

    @staticmethod
    def backward(ctx, g):
        g = g.clone()
        dist.all_reduce(g)
        return g


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, y):
        y = y.detach().clone()
        dist.all_reduce(y)
        return y

    @staticmethod
    def backward(ctx, g):
        return g.clone()


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = list(mlp)
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.act = act
        take = lambda t, dim: nn.Parameter(t.detach().index_select(dim, mine).contiguous().clone())
        self.w1, self.b1, self.w2 = take(fc1.weight, 0), take(fc1.bias, 0), take(fc2.weight, 1)
        self.b2 = nn.Parameter(torch.empty_like(fc2.bias).copy_(fc2.bias.detach()))

    def forward(self, x):
        h = self.act(torch.einsum("...i,hi->...h", _F.apply(x), self.w1) + self.b1)
        return _G.apply(torch.einsum("...h,oh->...o", h, self.w2)) + self.b2


answer = ParallelMLP
