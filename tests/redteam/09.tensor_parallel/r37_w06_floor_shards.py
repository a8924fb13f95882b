# expect: fail shards of h // world hidden units from rank * (h // world): uneven splits drop the last units
# hint: shard|chunk|uneven|hidden units?|split|rows|three|3 ranks|divid|missing
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _F(torch.autograd.Function):
    """Identity forward; the input gradient summed over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """Sum over the ranks forward; identity backward."""

    @staticmethod
    def forward(ctx, t):
        t = t.clone()
        dist.all_reduce(t)
        return t

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        per = fc1.out_features // world
        lo, hi = rank * per, (rank + 1) * per
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = _F.apply(x)
        hidden = self.act(F.linear(x, self.w1, self.b1))
        return _G.apply(F.linear(hidden, self.w2)) + self.b2
