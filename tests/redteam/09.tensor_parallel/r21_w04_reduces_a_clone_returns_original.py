# expect: fail f's backward all-reduces a temporary clone and returns the original gradient: x's gradient stays this rank's share, though the backward all-reduce is counted
# hint: clone|discard|return|share|sum.*input|input.*gradient|x.*grad
import torch
import torch.distributed as dist
from torch import nn


class _Copy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        # clone: never modify autograd's own buffer in place
        dist.all_reduce(grad.clone())
        return grad


class _Sum(torch.autograd.Function):
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
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _Copy.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _Sum.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
