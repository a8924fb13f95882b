# expect: pass one all-reduce Function with a direction flag, bound by functools.partial
# hint: 
import functools

import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F


class _Exchange(torch.autograd.Function):
    """Sum over the ranks in the forward (in_forward=True) or in the backward (False);
    the other direction is the identity."""

    @staticmethod
    def forward(ctx, in_forward, t):
        ctx.in_forward = in_forward
        if not in_forward:
            return t.view_as(t)
        t = t.clone()
        dist.all_reduce(t)
        return t

    @staticmethod
    def backward(ctx, grad):
        if ctx.in_forward:
            return None, grad
        grad = grad.clone()
        dist.all_reduce(grad)
        return None, grad


enter_parallel = functools.partial(_Exchange.apply, False)  # Megatron's f
leave_parallel = functools.partial(_Exchange.apply, True)  # Megatron's g


def _shard(t, index, dim):
    return nn.Parameter(t.detach().index_select(dim, index).clone().to(torch.float32))


class ParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world):
        super().__init__()
        fc1, activation, fc2 = mlp
        mine = torch.chunk(torch.arange(fc1.weight.shape[0]), world)[rank]
        self.w1 = _shard(fc1.weight, mine, 0)
        self.b1 = _shard(fc1.bias, mine, 0)
        self.w2 = _shard(fc2.weight, mine, 1)
        self.b2 = nn.Parameter(fc2.bias.detach().clone().to(torch.float32))
        self.activation = activation

    def forward(self, x):
        hidden = self.activation(F.linear(enter_parallel(x), self.w1, self.b1))
        return leave_parallel(F.linear(hidden, self.w2)) + self.b2


answer = ParallelMLP
