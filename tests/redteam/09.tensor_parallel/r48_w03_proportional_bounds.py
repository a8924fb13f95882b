# expect: fail hidden units split at rank*h//world bounds, not torch.chunk's (3 ranks: 3, 3, 4 instead of 4, 4, 2)
# hint: chunk|shard|hidden|bytes|rows|units|keep
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _CopyIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _ReduceOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        dist.all_reduce(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad



class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        h = fc1.out_features
        lo, hi = rank * h // world, (rank + 1) * h // world  # "even" bounds, but not chunk's
        mine = torch.arange(lo, hi)
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = _CopyIn.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _ReduceOut.apply(F.linear(h, self.w2)) + self.b2

answer = ParallelMLP
