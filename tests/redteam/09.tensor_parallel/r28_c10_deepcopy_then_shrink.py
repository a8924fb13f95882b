# expect: pass
# hint:
# name: ParallelMLP
import copy

import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _F(torch.autograd.Function):
    """Identity forward; backward sums the input's gradient over the ranks."""

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        summed = grad.clone()
        dist.all_reduce(summed)
        return summed


class _G(torch.autograd.Function):
    """Forward sums the row-parallel shares; backward passes the gradient on."""

    @staticmethod
    def forward(ctx, partial):
        summed = partial.clone()
        dist.all_reduce(summed)
        return summed

    @staticmethod
    def backward(ctx, grad):
        return grad


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, act, fc2 = copy.deepcopy(mlp)  # our own Linear modules; the caller's stay whole
        mine = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        with torch.no_grad():
            fc1.weight = nn.Parameter(fc1.weight[mine].clone())
            fc1.bias = nn.Parameter(fc1.bias[mine].clone())
            fc2.weight = nn.Parameter(fc2.weight[:, mine].clone())
            fc2.bias = nn.Parameter(fc2.bias.clone())
        fc1.out_features = fc2.in_features = len(mine)
        self.fc1, self.act, self.fc2 = fc1, act, fc2

    def forward(self, x):
        h = self.act(self.fc1(_F.apply(x)))
        return _G.apply(F.linear(h, self.fc2.weight)) + self.fc2.bias
