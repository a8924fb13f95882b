# expect: fail registers the input-gradient all-reduce as a hook on the caller's x itself, not on a view made in forward, so each call adds one more hook and a second forward on the same x sums its gradient twice
# hint: hook|caller|view|each call|view_as
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


def _sum_grad(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        out = partial.clone()
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    """Rank `rank`'s share of mlp = (Linear(d, h), activation, Linear(h, d)) over `world` ranks."""

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
            x.register_hook(_sum_grad)  # x's gradient, summed over the ranks
        h = self.act(F.linear(x, self.w1, self.b1))
        return _G.apply(F.linear(h, self.w2)) + self.b2
