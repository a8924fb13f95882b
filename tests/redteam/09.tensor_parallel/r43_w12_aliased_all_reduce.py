# expect: fail imports all_reduce by name (from torch.distributed import all_reduce) and calls the alias, which bypasses dist.all_reduce, so the all-reduces run but nothing that watches dist.all_reduce can count them
# hint: dist\.all_reduce|count|all-reduce|alias|import
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F

from torch.distributed import all_reduce


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        h = self.act(F.linear(_F.apply(x), self.w1, self.b1))
        return _G.apply(F.linear(h, self.w2)) + self.b2
