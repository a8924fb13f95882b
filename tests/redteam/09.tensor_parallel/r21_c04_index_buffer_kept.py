# expect: pass keeps its hidden-unit indices as a registered int64 buffer (relabelled: the prompt asks that the parameters be the shards only and counts their storages; a 5-element index buffer is no parameter, no copy of a weight, and costs no device work, sync or collective)
# hint: 
import torch
import torch.distributed as dist
from torch import nn


class _Copy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


class _Sum(torch.autograd.Function):
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

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        self.register_buffer("units", torch.chunk(torch.arange(fc1.out_features), world)[rank].clone())
        self.w1 = nn.Parameter(fc1.weight.detach()[self.units].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[self.units].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, self.units].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _Copy.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _Sum.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
