# expect: fail wraps only the output's sum in an autograd function and never all-reduces the input's gradient, so every rank's x.grad holds only its own hidden units' share
# hint: input|x.s gradient|x\.grad|backward|all-reduce
# name: ParallelMLP
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


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
        h = self.act(F.linear(x, self.w1, self.b1))  # x is the same on every rank: nothing to do
        return _G.apply(F.linear(h, self.w2)) + self.b2
