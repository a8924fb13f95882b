# expect: pass input gradient summed by a hook on a view made in forward; shards kept transposed, addmm
# hint:
# name: ParallelMLP
import copy

import torch
import torch.distributed as dist
from torch import nn


class _SumOutputs(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        t = t.clone()
        dist.all_reduce(t, op=dist.ReduceOp.SUM)
        return t

    @staticmethod
    def backward(ctx, g):
        return g  # the output's gradient is the same on every rank already


def _sum_grad_over_ranks(g):
    g = g.clone()
    dist.all_reduce(g, op=dist.ReduceOp.SUM)
    return g


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        first, activation, second = mlp
        hidden = first.weight.shape[0]
        mine = torch.chunk(torch.arange(hidden), world)[rank]
        # transposed copies: (d, h_r) for the first layer, (h_r, d) for the second
        self.a = nn.Parameter(first.weight.detach()[mine].t().contiguous())
        self.a_bias = nn.Parameter(first.bias.detach()[mine].clone())
        self.b = nn.Parameter(second.weight.detach()[:, mine].t().contiguous())
        self.b_bias = nn.Parameter(second.bias.detach().clone())
        self.activation = copy.deepcopy(activation)

    def forward(self, x):
        if x.requires_grad:
            x = x.view_as(x)  # a fresh view per call: one hook per call
            x.register_hook(_sum_grad_over_ranks)
        lead = x.shape[:-1]
        flat = x.reshape(-1, x.shape[-1])
        h = self.activation(torch.addmm(self.a_bias, flat, self.a))
        partial = h @ self.b
        out = _SumOutputs.apply(partial) + self.b_bias
        return out.reshape(*lead, out.shape[-1])
