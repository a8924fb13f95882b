# expect: fail hidden units split in h // world slices: the last h % world units are dropped when world does not divide h
# hint: divide evenly|not divid|uneven|chunk|remainder|hidden units|three|world.?=.?3|3 ranks
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
        per = fc1.out_features // world  # hidden units per rank
        mine = slice(rank * per, (rank + 1) * per)
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())
        self.act = act

    def forward(self, x):
        x = CopyToParallel.apply(x)
        h = self.act(F.linear(x, self.w1, self.b1))
        out = ReduceFromParallel.apply(F.linear(h, self.w2))
        return out + self.b2


answer = ParallelMLP
