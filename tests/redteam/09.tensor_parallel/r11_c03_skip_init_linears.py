# expect: pass
# hint:
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.utils import skip_init


class Broadcast(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        total = g.contiguous().clone()
        dist.all_reduce(total)
        return total


class Reduce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, y):
        total = y.contiguous().clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, g):
        return g


class ParallelMLP(nn.Module):
    """Column-parallel nn.Linear, activation, row-parallel nn.Linear (no bias) + bias after the sum."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        d, h = fc1.in_features, fc1.out_features
        sizes = [len(c) for c in torch.chunk(torch.arange(h), world)]
        start, n = sum(sizes[:rank]), sizes[rank]
        kw = {"dtype": fc1.weight.dtype, "device": fc1.weight.device}
        self.column = skip_init(nn.Linear, d, n, **kw)
        self.act = act
        self.row = skip_init(nn.Linear, n, d, bias=False, **kw)
        self.bias = nn.Parameter(torch.empty_like(fc2.bias))
        with torch.no_grad():
            self.column.weight.copy_(fc1.weight[start : start + n])
            self.column.bias.copy_(fc1.bias[start : start + n])
            self.row.weight.copy_(fc2.weight[:, start : start + n])
            self.bias.copy_(fc2.bias)

    def forward(self, x):
        partial = self.row(self.act(self.column(Broadcast.apply(x))))
        return Reduce.apply(partial) + self.bias
