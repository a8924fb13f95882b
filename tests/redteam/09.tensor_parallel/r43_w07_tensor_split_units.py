# expect: fail splits the hidden units with torch.tensor_split instead of torch.chunk, which gives the same output but other shards than asked whenever the two differ (64 units on 3 ranks: 22, 21, 21 instead of chunk's 22, 22, 20)
# hint: chunk|shard|hidden units|bytes|tensor_split
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _F(torch.autograd.Function):
    """Before the column-parallel layer: x passes on, its gradient is summed."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """After the row-parallel layer: the shares are summed, the gradient passes on."""

    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.tensor_split(torch.arange(fc1.out_features), world)[rank]  # as even as can be
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        h = self.act(F.linear(_F.apply(x), self.w1, self.b1))
        return _G.apply(F.linear(h, self.w2)) + self.b2
