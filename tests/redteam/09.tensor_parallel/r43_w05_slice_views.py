# expect: fail takes each rank's hidden units as a contiguous slice and wraps the slices without cloning, views that keep the whole unsplit weights' storages alive on every rank
# hint: view|clone|storage|copy|whole
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
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        lo, hi = int(mine[0]), int(mine[-1]) + 1  # consecutive units: a slice is enough
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi])
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi])
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi])
        self.b2 = nn.Parameter(fc2.bias.detach())
        self.act = act

    def forward(self, x):
        h = self.act(F.linear(_F.apply(x), self.w1, self.b1))
        return _G.apply(F.linear(h, self.w2)) + self.b2
