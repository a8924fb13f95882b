# expect: pass
# hint:
# Right: `answer` is functools.partial of a more general class (its process group and the
# index of the activation as keywords); called as answer(mlp, rank, world) it builds the
# same shards, one all-reduce of the output forward and one of the input's gradient backward.
import functools

import torch
import torch.distributed as dist
from torch import nn


class _Enter(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad, group=ctx.group)
        return grad, None


class _Exit(torch.autograd.Function):
    @staticmethod
    def forward(ctx, partial, group):
        summed = partial.clone()
        dist.all_reduce(summed, group=group)
        return summed

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class TensorParallelMLP(nn.Module):
    def __init__(self, mlp, rank, world, *, group=None, activation_index=1):
        super().__init__()
        fc1, fc2 = mlp[0], mlp[-1]
        self.activation = mlp[activation_index]
        self.group = group
        units = torch.chunk(torch.arange(fc1.out_features), world)[rank]
        lo, hi = int(units[0]), int(units[-1]) + 1
        # contiguous hidden units: slices, then cloned so that no view keeps the whole weight
        self.fc1_weight = nn.Parameter(fc1.weight.detach()[lo:hi].clone())
        self.fc1_bias = nn.Parameter(fc1.bias.detach()[lo:hi].clone())
        self.fc2_weight = nn.Parameter(fc2.weight.detach()[:, lo:hi].clone())
        self.fc2_bias = nn.Parameter(fc2.bias.detach().clone())

    def forward(self, x):
        x = _Enter.apply(x, self.group)
        h = self.activation(torch.addmm(self.fc1_bias, x.reshape(-1, x.shape[-1]), self.fc1_weight.t()))
        partial = torch.mm(h, self.fc2_weight.t()).reshape(*x.shape[:-1], -1)
        return _Exit.apply(partial, self.group) + self.fc2_bias


answer = functools.partial(TensorParallelMLP, group=None, activation_index=1)
