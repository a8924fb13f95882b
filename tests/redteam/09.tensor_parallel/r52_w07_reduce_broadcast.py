# expect: fail sums with dist.reduce to rank 0 then dist.broadcast (and the same in backward) instead of one dist.all_reduce
# hint: all.reduce|all_reduce|broadcast|reduce
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


def _sum_everywhere(t):
    dist.reduce(t, dst=0)  # rank 0 adds the shares...
    dist.broadcast(t, src=0)  # ...and hands the sum to everyone


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        _sum_everywhere(grad)
        return grad


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        t = t.clone()
        _sum_everywhere(t)
        return t

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
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = _F.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _G.apply(F.linear(h, self.w2)) + self.b2


answer = ParallelMLP
