# expect: pass
# hint:
# name: ParallelMLP
import math

import torch
import torch.distributed as dist
from torch import nn


def _sum_over_ranks(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


class _RowSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out


class ColumnParallel(nn.Module):
    def __init__(self, fc, lo, n):
        super().__init__()
        self.weight = nn.Parameter(fc.weight.detach().narrow(0, lo, n).clone())
        self.bias = nn.Parameter(fc.bias.detach().narrow(0, lo, n).clone())

    def forward(self, x):
        x = x.view_as(x)  # a view of our own: its hook is dropped with this call's graph
        if x.requires_grad:
            x.register_hook(_sum_over_ranks)
        return torch.matmul(x, self.weight.t()) + self.bias


class RowParallel(nn.Module):
    def __init__(self, fc, lo, n):
        super().__init__()
        self.weight = nn.Parameter(fc.weight.detach().narrow(1, lo, n).clone())
        self.bias = nn.Parameter(fc.bias.detach().clone())

    def forward(self, h):
        return _RowSum.apply(torch.matmul(h, self.weight.t())) + self.bias


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        size = math.ceil(fc1.out_features / world)  # torch.chunk's piece size
        lo = rank * size
        n = min(size, fc1.out_features - lo)
        self.col, self.act, self.row = ColumnParallel(fc1, lo, n), act, RowParallel(fc2, lo, n)

    def forward(self, x):
        return self.row(self.act(self.col(x)))
