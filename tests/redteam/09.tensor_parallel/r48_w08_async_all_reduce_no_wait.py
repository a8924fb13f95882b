# expect: fail forward all-reduce started with async_op=True and never waited on: the output is read before the sum is done
# hint: wait|async|synchron|output
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


class _ReduceOutAsync(torch.autograd.Function):
    """g, "overlapped": start the sum and hand the tensor on (the wait was forgotten)."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        ctx.work = dist.all_reduce(total, async_op=True)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
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
        x = _CopyIn.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _ReduceOutAsync.apply(F.linear(h, self.w2)) + self.b2

answer = ParallelMLP
