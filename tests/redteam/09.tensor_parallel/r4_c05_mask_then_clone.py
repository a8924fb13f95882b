# expect: pass
# hint: 
import sys
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class Megatron:
    """f and g as two Functions made by one factory."""


def _make(sum_forward):
    class Exchange(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            t = t.clone()
            if sum_forward:
                dist.all_reduce(t, op=dist.ReduceOp.SUM)
            return t

        @staticmethod
        def backward(ctx, g):
            g = g.clone()
            if not sum_forward:
                dist.all_reduce(g, op=dist.ReduceOp.SUM)
            return g
    return Exchange


f, g = _make(False), _make(True)


class answer(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        keep = torch.zeros(fc1.out_features, dtype=torch.bool)
        keep[torch.chunk(torch.arange(fc1.out_features), world)[rank]] = True
        self.act = act
        self.weight1 = nn.Parameter(fc1.weight.detach()[keep].clone())
        self.bias1 = nn.Parameter(fc1.bias.detach()[keep].clone())
        self.weight2 = nn.Parameter(fc2.weight.detach()[:, keep].clone())
        self.bias2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = f.apply(x)
        return g.apply(self.act(x @ self.weight1.T + self.bias1) @ self.weight2.T) + self.bias2
