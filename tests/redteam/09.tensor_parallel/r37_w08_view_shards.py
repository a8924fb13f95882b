# expect: fail shards are slices (views) of the unsplit weights, not copies: whole storages kept, and shared with mlp
# hint: view|clone|storage|cop(y|ies)|slice|shar(e|ing)|memory|bytes
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
        pieces = torch.chunk(torch.arange(fc1.out_features), world)
        lo = int(pieces[rank][0])
        hi = int(pieces[rank][-1]) + 1
        # slices: no copy needed, detach() already cuts them from autograd
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi])
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi])
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi])
        self.b2 = nn.Parameter(fc2.bias.detach())
        self.act = act

    def forward(self, x):
        x = _F.apply(x)
        hidden = self.act(F.linear(x, self.w1, self.b1))
        return _G.apply(F.linear(hidden, self.w2)) + self.b2
