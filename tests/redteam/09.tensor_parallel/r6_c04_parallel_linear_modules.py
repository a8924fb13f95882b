# expect: pass
# hint: 
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _F(torch.autograd.Function):
    """f: passes x on; backward sums x's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """g: sums the row-parallel shares; backward passes the gradient through."""

    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad


class ColumnParallel(nn.Module):
    def __init__(self, fc, mine):
        super().__init__()
        self.weight = nn.Parameter(fc.weight.detach()[mine].clone())
        self.bias = nn.Parameter(fc.bias.detach()[mine].clone())

    def forward(self, x):
        return F.linear(_F.apply(x), self.weight, self.bias)


class RowParallel(nn.Module):
    def __init__(self, fc, mine):
        super().__init__()
        self.weight = nn.Parameter(fc.weight.detach()[:, mine].clone())
        self.bias = nn.Parameter(fc.bias.detach().clone())

    def forward(self, h):
        return _G.apply(F.linear(h, self.weight)) + self.bias


class answer(nn.Sequential):
    def __init__(self, mlp, rank, world):
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        super().__init__(ColumnParallel(fc1, mine), act, RowParallel(fc2, mine))
