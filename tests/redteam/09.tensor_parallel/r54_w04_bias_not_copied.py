# expect: fail fc2 bias wrapped without a copy (detach only): the shard shares storage with the caller's model, so an SGD step on it changes the caller's mlp
# hint: cop(y|ies)|clone|storage|share
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
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi].clone())
        self.b2 = nn.Parameter(fc2.bias.detach())  # replicated whole on every rank: nothing to slice, so no copy
        self.activation = activation

    def forward(self, x):
        x = CopyToParallel.apply(x)
        hidden = self.activation(x @ self.w1.T + self.b1)
        return ReduceFromParallel.apply(hidden @ self.w2.T) + self.b2


answer = ParallelMLP
