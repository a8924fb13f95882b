# expect: pass nn.Linear submodules (skip_init) for the shards, one Function made into f and g with functools.partial, prints
# hint: 
import functools

import torch
import torch.distributed as dist
from torch import nn


class _AllReduceOneWay(torch.autograd.Function):
    """forward_sum=True: Megatron's g (sum forward, identity backward);
    forward_sum=False: Megatron's f (identity forward, sum backward)."""

    @staticmethod
    def forward(ctx, forward_sum, t):
        ctx.forward_sum = forward_sum
        t = t.clone()
        if forward_sum:
            dist.all_reduce(t)
        return t

    @staticmethod
    def backward(ctx, grad):
        if not ctx.forward_sum:
            grad = grad.contiguous().clone()
            dist.all_reduce(grad)
        return None, grad


f = functools.partial(_AllReduceOneWay.apply, False)
g = functools.partial(_AllReduceOneWay.apply, True)


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        first, act, second = mlp
        d, h = first.in_features, first.out_features
        mine = torch.chunk(torch.arange(h), world)[rank]
        # skip_init: no random initialisation (and no draw from the RNG) before the copy
        self.col = nn.utils.skip_init(nn.Linear, d, len(mine))
        self.row = nn.utils.skip_init(nn.Linear, len(mine), d, bias=False)
        self.bias = nn.Parameter(second.bias.detach().clone())
        with torch.no_grad():
            self.col.weight.copy_(first.weight.detach()[mine])
            self.col.bias.copy_(first.bias.detach()[mine])
            self.row.weight.copy_(second.weight.detach()[:, mine])
        self.act = act
        print(f"rank {rank}/{world}: hidden units {mine[0].item()}..{mine[-1].item()} of {h}")

    def forward(self, x):
        return g(self.row(self.act(self.col(f(x))))) + self.bias


answer = ParallelMLP
