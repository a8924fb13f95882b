# expect: fail the row-parallel matmul and its all-reduce fused in one autograd Function whose backward returns None for the weight: the output and x's gradient are right, but fc2's weight shard never gets a gradient, so the SGD step leaves it unchanged
# hint: weight|w2|gradient|grad|None|row-parallel|second linear|fc2
import torch
import torch.distributed as dist
from torch import nn


class _CopyToRanks(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous().clone()
        dist.all_reduce(grad)  # each rank holds its hidden units' share of x's gradient
        return grad


class _RowParallelLinear(torch.autograd.Function):
    """h @ w.T, summed over the ranks: the row-parallel layer in one piece."""

    @staticmethod
    def forward(ctx, h, w):
        ctx.save_for_backward(w)
        out = h @ w.T
        dist.all_reduce(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (w,) = ctx.saved_tensors
        return grad @ w, None  # the gradient of h; w is a parameter


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
        h = self.act(_CopyToRanks.apply(x) @ self.w1.T + self.b1)
        return _RowParallelLinear.apply(h, self.w2) + self.b2


answer = ParallelMLP
