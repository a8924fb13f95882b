# expect: fail f's backward multiplies x's gradient by world instead of summing the ranks' shares ("world equal shares"): the shares differ (each comes from other hidden units), so x's gradient is wrong, and no all-reduce runs in backward
# hint: all_reduce|sum over the ranks|share|world|input's gradient|x's gradient|backward
import torch
import torch.distributed as dist
from torch import nn


class _F(torch.autograd.Function):
    """f: x passed on forward; backward scales x's gradient up to all ranks."""

    @staticmethod
    def forward(ctx, x, world):
        ctx.world = world
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        # every rank holds one of world shares of the gradient: scale up instead of a collective
        return grad * ctx.world, None


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.contiguous().clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        self.world = world
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _F.apply(x, self.world)
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
