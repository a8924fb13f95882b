# expect: fail the shards are nn.Parameters kept in a plain Python list, not an nn.ParameterList: the module registers none of them, so parameters() is empty, an optimizer never updates them and their bytes are not the module's
# hint: ParameterList|register|list|parameters\(\)|not registered|optimizer
import torch
import torch.distributed as dist
from torch import nn


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


class _G(torch.autograd.Function):
    """g: the row-parallel shares summed forward; the gradient passed on backward."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.contiguous().clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        pieces = (fc1.weight[mine], fc1.bias[mine], fc2.weight[:, mine], fc2.bias)
        self.shards = [nn.Parameter(t.detach().clone()) for t in pieces]  # w1, b1, w2, b2

    def forward(self, x):
        w1, b1, w2, b2 = self.shards
        h = self.act(_F.apply(x) @ w1.T + b1)
        return _G.apply(h @ w2.T) + b2


answer = ParallelMLP
