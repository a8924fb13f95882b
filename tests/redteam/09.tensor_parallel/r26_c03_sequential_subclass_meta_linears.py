# expect: pass ParallelMLP is an nn.Sequential subclass (f as a module, a column Linear built on the meta device then materialized with to_empty and filled with copy_, the activation, a row-parallel module doing g and the bias); the forward is Sequential's own; hidden units cut by ceil-division slices (narrow), which equal torch.chunk's
# hint: 
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _Identity_SumGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        total = grad.clone(memory_format=torch.contiguous_format)
        dist.all_reduce(total)
        return total


class _Sum_IdentityGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, share):
        total = share.clone(memory_format=torch.contiguous_format)
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class CopyToTensorParallel(nn.Module):
    def forward(self, x):
        return _Identity_SumGrad.apply(x)


class RowParallelLinear(nn.Module):
    def __init__(self, weight_columns, bias):
        super().__init__()
        self.weight = nn.Parameter(weight_columns)
        self.bias = nn.Parameter(bias)

    def forward(self, h):
        return _Sum_IdentityGrad.apply(F.linear(h, self.weight)) + self.bias


class ParallelMLP(nn.Sequential):
    def __init__(self, mlp, rank, world):
        fc1, act, fc2 = mlp
        hidden = fc1.out_features
        step = -(-hidden // world)  # torch.chunk's piece size: ceil(h / world)
        start = min(rank * step, hidden)
        size = min(step, hidden - start)
        column = nn.Linear(fc1.in_features, size, device="meta").to_empty(device=fc1.weight.device)
        with torch.no_grad():
            column.weight.copy_(fc1.weight.narrow(0, start, size))
            column.bias.copy_(fc1.bias.narrow(0, start, size))
        row = RowParallelLinear(
            fc2.weight.detach().narrow(1, start, size).clone(), fc2.bias.detach().clone()
        )
        super().__init__(CopyToTensorParallel(), column, act, row)


answer = ParallelMLP
