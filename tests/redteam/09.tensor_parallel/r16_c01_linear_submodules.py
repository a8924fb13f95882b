# expect: pass nn.Linear submodules loaded with copy_, Megatron f/g Functions
# hint: 
import torch
import torch.distributed as dist
from torch import nn


class CopyToParallel(torch.autograd.Function):
    """Megatron's f: x passes on; its gradient is summed over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class ReduceFromParallel(torch.autograd.Function):
    """Megatron's g: the ranks' shares summed; the gradient passes on unchanged."""

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
        kw = dict(device=fc1.weight.device, dtype=torch.float32)
        self.column = nn.Linear(fc1.in_features, len(mine), **kw)
        self.row = nn.Linear(len(mine), fc2.out_features, bias=False, **kw)
        self.row_bias = nn.Parameter(torch.empty(fc2.out_features, **kw))
        with torch.no_grad():
            self.column.weight.copy_(fc1.weight.detach()[mine])
            self.column.bias.copy_(fc1.bias.detach()[mine])
            self.row.weight.copy_(fc2.weight.detach()[:, mine])
            self.row_bias.copy_(fc2.bias.detach())
        self.activation = activation

    def forward(self, x):
        x = CopyToParallel.apply(x)
        partial = self.row(self.activation(self.column(x)))
        return ReduceFromParallel.apply(partial) + self.row_bias


answer = ParallelMLP
