# expect: pass nn.Linear built inside fork_rng (caller's RNG untouched), bias-free row layer, functools.partial hook, g as a Function
# hint:
import functools

import torch
import torch.distributed as dist
from torch import nn


def _all_reduce_grad(grad, op):
    grad = grad.clone()
    dist.all_reduce(grad, op=op)
    return grad


class RowParallelSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, y):
        out = y.detach().clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out  # already the same on every rank


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        rows = torch.chunk(torch.arange(fc1.out_features), world)[rank].tolist()
        with torch.random.fork_rng(devices=[]):  # nn.Linear's init draws: keep them off the caller's RNG
            self.fc1 = nn.Linear(fc1.in_features, len(rows))
            self.fc2 = nn.Linear(len(rows), fc2.out_features, bias=False)
        with torch.no_grad():
            self.fc1.weight.copy_(fc1.weight[rows])
            self.fc1.bias.copy_(fc1.bias[rows])
            self.fc2.weight.copy_(fc2.weight[:, rows])
        self.fc2_bias = nn.Parameter(fc2.bias.detach().clone())
        self.activation = act
        self._input_hook = functools.partial(_all_reduce_grad, op=dist.ReduceOp.SUM)

    def forward(self, x):
        x = x.view_as(x)
        if x.requires_grad:
            x.register_hook(self._input_hook)
        y = self.fc2(self.activation(self.fc1(x)))
        return RowParallelSum.apply(y) + self.fc2_bias


answer = ParallelMLP
