# expect: pass shards held in two nn.Linear submodules (fc2 without bias, bias a separate Parameter); x's gradient summed by a hook on a view made in forward, the output's sum by one autograd Function
# hint:
import torch
import torch.distributed as dist
from torch import nn


def _summed(grad):
    total = grad.clone()
    dist.all_reduce(total)
    return total


class _AllReduceForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        out = t.clone()
        dist.all_reduce(out, op=dist.ReduceOp.SUM)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad  # the output's gradient is already the same on every rank


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        first, self.activation, second = mlp[0], mlp[1], mlp[2]
        mine = torch.chunk(torch.arange(first.out_features), world)[rank]
        self.column = nn.Linear(first.in_features, len(mine))
        self.row = nn.Linear(len(mine), second.out_features, bias=False)
        self.bias = nn.Parameter(second.bias.detach().clone().to(torch.float32))
        with torch.no_grad():
            self.column.weight.copy_(first.weight.detach()[mine])
            self.column.bias.copy_(first.bias.detach()[mine])
            self.row.weight.copy_(second.weight.detach()[:, mine])

    def forward(self, x):
        x = x.view_as(x)
        if x.requires_grad:
            x.register_hook(_summed)  # a fresh view each call: one hook per call
        partial = self.row(self.activation(self.column(x)))
        return _AllReduceForward.apply(partial) + self.bias


answer = ParallelMLP
