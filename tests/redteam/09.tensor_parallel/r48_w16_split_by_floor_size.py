# expect: fail hidden units cut with torch.split(arange(h), h // world): when world does not divide h the last units belong to no rank
# hint: chunk|shard|hidden|units|output|bytes
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _CopyIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _ReduceOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        dist.all_reduce(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        h = fc1.out_features
        mine = torch.split(torch.arange(h), h // world)[rank]  # 10 in 3: 3, 3, 3 (and 1 left over)
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = _CopyIn.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        return _ReduceOut.apply(F.linear(h, self.w2)) + self.b2

answer = ParallelMLP
