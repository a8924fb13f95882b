# expect: fail b2 is passed into g and added after the sum inside its forward (right output), but g's backward returns None for it: autograd never gives b2 a gradient, so the SGD step leaves it where it was
# hint: b2|bias|none|no gradient|grad.*(bias|b2)|backward.*return|sgd|step|every shard
import torch
import torch.distributed as dist
from torch import nn


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)
        return grad


class _GPlusBias(torch.autograd.Function):
    """g, and fc2's bias once after the sum."""

    @staticmethod
    def forward(ctx, partial, bias):
        total = partial.contiguous().clone()
        dist.all_reduce(total)
        return total + bias

    @staticmethod
    def backward(ctx, grad):
        return grad, None  # the bias is a Parameter: autograd takes care of it


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, self.act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone())
        self.b2 = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        h = self.act(_F.apply(x) @ self.w1.T + self.b1)
        return _GPlusBias.apply(h @ self.w2.T, self.b2)


answer = ParallelMLP
