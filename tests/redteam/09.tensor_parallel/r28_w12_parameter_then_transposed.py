# expect: fail Stores the row-parallel shard as nn.Parameter(...).T to keep it as (h/p, d): .T of a Parameter is a plain tensor view, so the module never registers it; parameters() lacks fc2's shard, and an SGD step over the module's parameters leaves it unchanged, so the outputs after the step are wrong.
# hint: (regist|not a parameter|plain tensor|parameters\(\)|\.T\b|transpos|optimi[sz]er|sgd|never updated|not updated|every shard)
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class IdentityThenSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class SumThenIdentity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        # (d, h/p) -> (h/p, d), so that the product below is a plain h @ w2
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone()).T
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        h = self.act(F.linear(IdentityThenSum.apply(x), self.w1, self.b1))
        return SumThenIdentity.apply(h @ self.w2) + self.b2
