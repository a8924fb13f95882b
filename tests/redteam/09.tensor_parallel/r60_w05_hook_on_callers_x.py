# expect: fail sums x's gradient with a hook registered on the caller's x itself (not a view made in forward): every call adds one more hook, so repeated calls on the same x sum it again
# hint: hook|view_as|caller|input.?s gradient|x.?s gradient|each call|once|all.?reduce
import torch
import torch.distributed as dist
from torch import nn


class _CopyToRanks(torch.autograd.Function):
    """f: forward passes x on; backward sums x's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _SumFromRanks(torch.autograd.Function):
    """g: forward sums the shares over the ranks; backward passes the gradient on."""

    @staticmethod
    def forward(ctx, partial):
        partial = partial.clone()
        dist.all_reduce(partial)
        return partial

    @staticmethod
    def backward(ctx, grad):
        return grad


def _sum_grad(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        self.act = act
        self.w1 = nn.Parameter(fc1.weight.detach()[mine].clone().float())
        self.b1 = nn.Parameter(fc1.bias.detach()[mine].clone().float())
        self.w2 = nn.Parameter(fc2.weight.detach()[:, mine].clone().float())
        self.b2 = nn.Parameter(fc2.bias.detach().clone().float())

    def forward(self, x):
        if x.requires_grad:
            x.register_hook(_sum_grad)
        h = self.act(x @ self.w1.T + self.b1)
        return _SumFromRanks.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
