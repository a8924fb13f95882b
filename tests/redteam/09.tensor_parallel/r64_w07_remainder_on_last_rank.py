# expect: fail hidden units split as h // world each with the remainder on the last rank, not torch.chunk's split
# hint: chunk|hidden units|uneven|remainder|split|three|3 ranks|shard.{0,30}(size|shape|bytes)
# Wrong: the prompt fixes each rank's units as torch.chunk(torch.arange(h), world)[rank]; on 3
# ranks with h not a multiple of 3 the shards differ (outputs still right).
import torch
import torch.distributed as dist
from torch import nn


class _CopyToShards(torch.autograd.Function):
    """f: x passes on; its gradient is summed over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _SumShards(torch.autograd.Function):
    """g: the shares summed; the gradient passes on unchanged."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        h = fc1.out_features
        size = h // world
        lo = rank * size
        hi = h if rank == world - 1 else lo + size
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _CopyToShards.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _SumShards.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
