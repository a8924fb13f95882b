# expect: fail Copies the shards with copy.deepcopy(weight.detach()[a:b]) instead of .clone(): a deep copy of a view copies the view's whole storage, so each shard is a fresh tensor that still sits in a full-size copy of the weight, and each rank keeps as many bytes as the unsplit MLP.
# hint: (deepcopy|deep copy|storage|bytes|full(-| )size|whole (weight|storage)|view|clone)
# name: ParallelMLP
import copy

import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class ToRanks(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class FromRanks(torch.autograd.Function):
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
        lo, hi = int(mine[0]), int(mine[-1]) + 1
        # deepcopy: a real copy, nothing shared with the unsplit mlp
        self.w1 = nn.Parameter(copy.deepcopy(fc1.weight.detach()[lo:hi]))
        self.b1 = nn.Parameter(copy.deepcopy(fc1.bias.detach()[lo:hi]))
        self.w2 = nn.Parameter(copy.deepcopy(fc2.weight.detach()[:, lo:hi]))
        self.b2 = nn.Parameter(copy.deepcopy(fc2.bias.detach()))
        self.act = act

    def forward(self, x):
        h = self.act(F.linear(ToRanks.apply(x), self.w1, self.b1))
        return FromRanks.apply(F.linear(h, self.w2)) + self.b2
