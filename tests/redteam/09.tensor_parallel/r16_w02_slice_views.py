# expect: fail shards are basic slices of the weights (views), not cloned copies: each keeps the whole weight's storage
# hint: view|clone|copy|storage|slice
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _F(torch.autograd.Function):
    """Identity forward; the input's gradient summed over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """The row-parallel shares summed forward; the gradient passed on backward."""

    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        dist.all_reduce(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        lo, hi = int(mine[0]), int(mine[-1]) + 1  # the chunk is a contiguous range
        # detach() so that the shards are leaves of their own, not part of mlp's graph
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi])
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi])
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi])
        self.b2 = nn.Parameter(fc2.bias.detach())

    def forward(self, x):
        x = _F.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
