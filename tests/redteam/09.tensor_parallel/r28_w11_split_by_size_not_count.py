# expect: fail Picks the hidden units with torch.split(torch.arange(h), world)[rank]: split's second argument is a piece SIZE, not a number of pieces, so each rank keeps only `world` hidden units (2 of 128 with two ranks) and the output misses almost every term of the sum.
# hint: (split|chunk|piece size|size of each|number of (pieces|chunks)|hidden units|torch\.chunk\(torch\.arange)
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class CopyIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class ReduceOut(torch.autograd.Function):
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
        mine = torch.split(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        h = self.act(F.linear(CopyIn.apply(x), self.w1, self.b1))
        return ReduceOut.apply(F.linear(h, self.w2)) + self.b2
