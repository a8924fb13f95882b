# expect: pass nn.Linear submodules made with torch.nn.utils.skip_init (no random draw) whose parameters are replaced by cloned shards, a bias-free row Linear plus a separate bias, and f/g named after Megatron's copy and reduce
# hint: 
# name: ParallelMLP
import copy

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.utils import skip_init


class _CopyToParallelRegion(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        total = grad.contiguous().clone()
        dist.all_reduce(total, op=dist.ReduceOp.SUM)
        return total


class _ReduceFromParallelRegion(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        total = x.contiguous().clone()
        dist.all_reduce(total, op=dist.ReduceOp.SUM)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = list(mlp)
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        d, local = fc1.in_features, len(mine)
        self.column = skip_init(nn.Linear, d, local)
        self.column.weight = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.column.bias = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.row = skip_init(nn.Linear, local, fc2.out_features, bias=False)
        self.row.weight = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.row_bias = nn.Parameter(fc2.bias.detach().clone())
        self.act = copy.deepcopy(act)

    def forward(self, x):
        h = self.act(self.column(_CopyToParallelRegion.apply(x)))
        return _ReduceFromParallelRegion.apply(self.row(h)) + self.row_bias
