# expect: fail both exchanges call the default ProcessGroup's own allreduce method (dist.group.WORLD.allreduce([t]).wait()) instead of dist.all_reduce(...), which the prompt requires: the right sums, but through a path that dist.all_reduce never sees
# hint: dist\.all_reduce|processgroup|process group|group\.world|\.allreduce|method|count|call.*through
import torch
import torch.distributed as dist
from torch import nn


def _sum(t):
    t = t.contiguous().clone()
    dist.group.WORLD.allreduce([t]).wait()  # the group's own collective: one call, one wait
    return t


class _F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return _sum(grad)


class _G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial):
        return _sum(partial)

    @staticmethod
    def backward(ctx, grad):
        return grad


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
        return _G.apply(h @ self.w2.T) + self.b2


answer = ParallelMLP
