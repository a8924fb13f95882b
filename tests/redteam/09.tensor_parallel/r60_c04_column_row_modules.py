# expect: pass composed of ColumnParallel and RowParallel submodules, each with its own autograd Function, built from a classmethod-free factory function; F.linear on the shards
# hint:
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _IdentityThenSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_out):
        g = grad_out.clone()
        dist.all_reduce(g)
        return g


class _SumThenIdentity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, part):
        total = part.detach().clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out


def _copy(t):
    return nn.Parameter(t.detach().clone().to(dtype=torch.float32))


class ColumnParallel(nn.Module):
    def __init__(self, linear, rows):
        super().__init__()
        self.weight = _copy(linear.weight[rows])
        self.bias = _copy(linear.bias[rows])

    def forward(self, x):
        return F.linear(_IdentityThenSum.apply(x), self.weight, self.bias)


class RowParallel(nn.Module):
    def __init__(self, linear, cols):
        super().__init__()
        self.weight = _copy(linear.weight[:, cols])
        self.bias = _copy(linear.bias)

    def forward(self, h):
        return _SumThenIdentity.apply(F.linear(h, self.weight)) + self.bias


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        units = torch.chunk(torch.arange(mlp[0].out_features), world)[rank]
        self.parts = nn.ModuleList(
            [ColumnParallel(mlp[0], units), mlp[1], RowParallel(mlp[2], units)]
        )

    def forward(self, x):
        for part in self.parts:
            x = part(x)
        return x


answer = ParallelMLP
