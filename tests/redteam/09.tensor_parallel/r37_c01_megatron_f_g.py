# expect: pass Megatron f/g autograd Functions, index_select shards as nn.Parameters
# hint:
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class CopyToTensorParallel(torch.autograd.Function):
    """Megatron's f: identity forward, sum of the gradient over ranks backward."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        total = grad.clone()
        dist.all_reduce(total)
        return total


class ReduceFromTensorParallel(torch.autograd.Function):
    """Megatron's g: sum over ranks forward, identity backward."""

    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp[0], mlp[1], mlp[2]
        idx = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        with torch.no_grad():
            self.w1 = nn.Parameter(fc1.weight.detach().index_select(0, idx).clone().float())
            self.b1 = nn.Parameter(fc1.bias.detach().index_select(0, idx).clone().float())
            self.w2 = nn.Parameter(fc2.weight.detach().index_select(1, idx).clone().float())
            self.b2 = nn.Parameter(fc2.bias.detach().clone().float())
        self.act = act

    def forward(self, x):
        x = CopyToTensorParallel.apply(x)
        hidden = self.act(F.linear(x, self.w1, self.b1))
        out = ReduceFromTensorParallel.apply(F.linear(hidden, self.w2))
        return out + self.b2
