# expect: pass hook on a view made in forward for f, one Function for g, transposed weight copies, torch.tensor_split over chunk indices computed by hand
# hint:
import math

import torch
import torch.distributed as dist
from torch import nn


class AllReduceSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        t = t.contiguous().clone()
        dist.all_reduce(t, op=dist.ReduceOp.SUM)
        return t

    @staticmethod
    def backward(ctx, g):
        return g


def _sum_grad(g):
    g = g.clone()
    dist.all_reduce(g)
    return g


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        h = mlp[0].out_features
        size = math.ceil(h / world)  # torch.chunk's piece size
        lo, hi = min(rank * size, h), min((rank + 1) * size, h)
        # stored transposed: (d, h_r) and (h_r, d)
        self.a = nn.Parameter(mlp[0].weight.detach()[lo:hi].t().clone().contiguous())
        self.a_bias = nn.Parameter(mlp[0].bias.detach()[lo:hi].clone())
        self.b = nn.Parameter(mlp[2].weight.detach()[:, lo:hi].t().clone().contiguous())
        self.b_bias = nn.Parameter(mlp[2].bias.detach().clone())
        self.activation = mlp[1]

    def forward(self, x):
        x = x.view_as(x)
        if x.requires_grad:
            x.register_hook(_sum_grad)
        hidden = self.activation(torch.addmm(self.a_bias, x, self.a))
        return AllReduceSum.apply(hidden @ self.b) + self.b_bias


answer = ParallelMLP
