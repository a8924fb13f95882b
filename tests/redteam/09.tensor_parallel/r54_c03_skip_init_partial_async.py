# expect: pass shard Linears made with skip_init (no random draws), one Function class for f and g chosen by functools.partial, async all-reduce waited on
# hint:
import functools

import torch
import torch.distributed as dist
from torch import nn


def _summed(t):
    t = t.clone()
    dist.all_reduce(t, async_op=True).wait()
    return t


class _Exchange(torch.autograd.Function):
    """Identity one way, a sum over the ranks the other; `reduce_in_forward` says which."""

    @staticmethod
    def forward(ctx, t, reduce_in_forward):
        ctx.reduce_in_forward = reduce_in_forward
        return _summed(t) if reduce_in_forward else t.view_as(t)

    @staticmethod
    def backward(ctx, grad):
        return (grad if ctx.reduce_in_forward else _summed(grad)), None


def _apply(t, reduce_in_forward):
    return _Exchange.apply(t, reduce_in_forward)


f = functools.partial(_apply, reduce_in_forward=False)  # before the column-parallel layer
g = functools.partial(_apply, reduce_in_forward=True)  # after the row-parallel layer


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        # skip_init: no initialisation, so no random numbers drawn from the global generator
        self.col = nn.utils.skip_init(nn.Linear, fc1.in_features, len(mine))
        self.row = nn.utils.skip_init(nn.Linear, len(mine), fc2.out_features, bias=False)
        self.bias = nn.Parameter(torch.empty(fc2.out_features))
        with torch.no_grad():
            self.col.weight.copy_(fc1.weight[mine])
            self.col.bias.copy_(fc1.bias[mine])
            self.row.weight.copy_(fc2.weight[:, mine])
            self.bias.copy_(fc2.bias)
        self.act = act

    def forward(self, x):
        return g(self.row(self.act(self.col(f(x))))) + self.bias


answer = ParallelMLP
