# expect: fail shards taken as slices (views) of the whole weights, not cloned: each keeps the whole storage alive and the SGD step writes into the caller's MLP
# hint: \bviews?\b|clone|storage|cop(y|ied)|bytes|slice
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class CopyToParallel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class ReduceFromParallel(torch.autograd.Function):
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
        w1 = fc1.weight.detach().chunk(world, dim=0)[rank]  # this rank's rows
        b1 = fc1.bias.detach().chunk(world)[rank]
        w2 = fc2.weight.detach().chunk(world, dim=1)[rank]  # the matching columns
        self.w1 = nn.Parameter(w1)
        self.b1 = nn.Parameter(b1)
        self.w2 = nn.Parameter(w2)
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = CopyToParallel.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        out = ReduceFromParallel.apply(F.linear(h, self.w2))
        return out + self.b2


answer = ParallelMLP
