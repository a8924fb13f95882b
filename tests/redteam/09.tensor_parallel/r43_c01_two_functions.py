# expect: pass Megatron's f and g as two torch.autograd.Function classes (f: identity forward, all-reduce of the gradient; g: all-reduce forward, identity backward), the shards as four nn.Parameter attributes and the mlp's own activation
# hint: 
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class CopyToRanks(torch.autograd.Function):
    """f: x passes on; its gradient is summed over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class SumOverRanks(torch.autograd.Function):
    """g: the shares are summed; the gradient passes on."""

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
        fc1, activation, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.activation = activation

    def forward(self, x):
        x = CopyToRanks.apply(x)
        h = self.activation(F.linear(x, self.w1, self.b1))  # column-parallel
        return SumOverRanks.apply(F.linear(h, self.w2)) + self.b2  # row-parallel, bias once
