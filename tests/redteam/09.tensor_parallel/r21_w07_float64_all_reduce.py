# expect: fail upcasts the row-parallel shares to float64 before the forward all-reduce "for an exact sum": twice the bytes on the wire for every block, every step
# hint: float64|double|bytes|twice|upcast|dtype
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
        exact = partial.to(torch.float64)  # summing in float64: no rounding between ranks
        dist.all_reduce(exact)
        return exact.to(partial.dtype)

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
