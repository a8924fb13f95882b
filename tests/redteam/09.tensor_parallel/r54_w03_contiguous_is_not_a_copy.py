# expect: fail row slices made .contiguous() to "copy" them: a contiguous slice stays a view of the whole weight's storage
# hint: view|storage|clone|cop(y|ies)|slice
import torch
import torch.distributed as dist
from torch import nn


class CopyToParallel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class ReduceFromParallel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, activation, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        lo, hi = int(mine[0]), int(mine[-1]) + 1
        # .contiguous() gives each shard its own compact memory (fc2.bias is whole: clone it)
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi].contiguous())
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi].contiguous())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi].contiguous())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.activation = activation

    def forward(self, x):
        x = CopyToParallel.apply(x)
        hidden = self.activation(x @ self.w1.T + self.b1)
        return ReduceFromParallel.apply(hidden @ self.w2.T) + self.b2


answer = ParallelMLP
