# expect: pass the input's gradient summed by a hook on a view made in forward; g an autograd Function; shards in an nn.ParameterList, F.linear
# hint:
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


def _summed(grad):
    grad = grad.clone()
    dist.all_reduce(grad)
    return grad


class _AllReduceSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        t = t.clone()
        dist.all_reduce(t)
        return t

    @staticmethod
    def backward(ctx, grad):
        return grad  # every rank already holds the whole output's gradient


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        first, self.activation, second = mlp
        mine = torch.chunk(torch.arange(first.weight.shape[0]), world)[rank]
        self.shards = nn.ParameterList(
            nn.Parameter(t.detach().clone())
            for t in (first.weight[mine], first.bias[mine], second.weight[:, mine], second.bias)
        )

    def forward(self, x):
        w1, b1, w2, b2 = self.shards
        x = x.view_as(x)  # a new node per call: its hook fires for this call only
        if x.requires_grad:
            x.register_hook(_summed)
        partial = F.linear(self.activation(F.linear(x, w1, b1)), w2)
        return _AllReduceSum.apply(partial) + b2


answer = ParallelMLP
