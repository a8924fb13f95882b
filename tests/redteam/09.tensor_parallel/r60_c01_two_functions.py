# expect: pass Megatron's f and g as two torch.autograd.Functions, shards as four Parameters
# hint:
import torch
import torch.distributed as dist
from torch import nn


class _CopyToRanks(torch.autograd.Function):
    """f: forward passes x on; backward sums x's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _SumFromRanks(torch.autograd.Function):
    """g: forward sums the shares over the ranks; backward passes the gradient on."""

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
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.act = act
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone().float())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone().float())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone().float())
        self.b2 = nn.Parameter(fc2.bias.detach().clone().float())

    def forward(self, x):
        x = _CopyToRanks.apply(x)
        h = self.act(x @ self.w1.T + self.b1)
        return _SumFromRanks.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
