# expect: fail keeps slice views (no clone) of the unsplit weights: each shard keeps the whole weight storage alive, and shares it with the caller mlp
# hint: clone|view|storage
import torch
import torch.distributed as dist
from torch import nn


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad

class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        h = fc1.out_features
        size = -(-h // world)
        lo, hi = rank * size, min((rank + 1) * size, h)
        self.w1 = nn.Parameter(fc1.weight.detach()[lo:hi])
        self.b1 = nn.Parameter(fc1.bias.detach()[lo:hi])
        self.w2 = nn.Parameter(fc2.weight.detach()[:, lo:hi])
        self.b2 = nn.Parameter(fc2.bias.detach())
        self.act = act

    def forward(self, x):
        x = _F.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
