# expect: fail input gradient summed by a hook registered on the caller's x: each call adds one more hook, so x's gradient is all-reduced again and again
# hint: hook|each call|every call|view_as|caller
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class ReduceFromParallel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        dist.all_reduce(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad


def _sum_over_ranks(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
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
        if x.requires_grad:
            x.register_hook(_sum_over_ranks)  # x's gradient: the sum of every rank's share
        h = self.act(F.linear(x, self.w1, self.b1))
        out = ReduceFromParallel.apply(F.linear(h, self.w2))
        return out + self.b2


answer = ParallelMLP
