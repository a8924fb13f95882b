# expect: fail shards are basic-slice views (w[lo:hi], w[:, lo:hi]) without clone: they keep the whole weights' storage
# hint: storage|view|clone|cop|bytes|keep
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
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        lo, hi = int(mine[0]), int(mine[-1]) + 1  # chunk's units are consecutive: slice them
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi])
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi])
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi])
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = _CopyIn.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _ReduceOut.apply(F.linear(h, self.w2)) + self.b2

answer = ParallelMLP
