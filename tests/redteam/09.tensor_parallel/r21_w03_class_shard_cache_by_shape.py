# expect: fail class-level cache of the cloned shards keyed by (rank, world, shapes): a second block of the same shapes gets the first block's weights, and the instances share Parameters
# hint: cache|class|shape|between instances|second block|shared|stale
import torch
import torch.distributed as dist
from torch import nn


class _Copy(torch.autograd.Function):
    """f: identity forward; the input's gradient summed over the ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


class _Sum(torch.autograd.Function):
    """g: the row-parallel shares summed forward; the gradient passed on backward."""

    @staticmethod
    def forward(ctx, partial):
        partial = partial.contiguous().clone()
        dist.all_reduce(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    _shards = {}  # cloning big weights is slow: clone each layout once

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        key = (rank, world, tuple(fc1.weight.shape), tuple(fc2.weight.shape))
        if key not in ParallelMLP._shards:
            mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
            ParallelMLP._shards[key] = (
                nn.Parameter(fc1.weight.detach()[mine].clone()),
                nn.Parameter(fc1.bias.detach()[mine].clone()),
                nn.Parameter(fc2.weight.detach()[:, mine].clone()),
                nn.Parameter(fc2.bias.detach().clone()),
            )
        self.w1, self.b1, self.w2, self.b2 = ParallelMLP._shards[key]

    def forward(self, x):
        x = _Copy.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _Sum.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
